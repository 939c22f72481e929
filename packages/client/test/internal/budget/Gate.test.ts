import { Deferred, Effect, Exit, Fiber } from "effect"
import * as Gate from "../../../src/internal/budget/Gate.js"
import { describe, expect, fork, it, TestClock } from "../../support/line/Testing.js"

/** Every other fiber runs until it waits (no time passes that matters here). */
const settle = TestClock.adjust("1 millis")

/** An attempt that says when it starts and holds its place until `done` is completed. */
const holding = (events: Array<string>, name: string, done: Deferred.Deferred<void, string>) =>
  Effect.andThen(Effect.sync(() => events.push(name)), Deferred.await(done))

describe("Gate", () => {
  it.effect("at most `places` on their way; the others start in the order they came as places free", () =>
    Effect.gen(function*() {
      const gate = Gate.make()
      const events: Array<string> = []
      const dones = yield* Effect.forEach(["a", "b", "c", "d"], () => Deferred.make<void, string>())
      const fibers: Array<Fiber.Fiber<void, string>> = []
      for (const [i, name] of ["a", "b", "c", "d"].entries()) {
        fibers.push(yield* fork(gate.run(2, holding(events, name, dones[i]!))))
        yield* settle
      }
      expect(events).toEqual(["a", "b"])
      yield* Deferred.succeed(dones[1]!, undefined)
      yield* Fiber.join(fibers[1]!)
      yield* settle
      expect(events).toEqual(["a", "b", "c"])
      // A failure gives its place back too.
      yield* Deferred.fail(dones[0]!, "refused")
      expect(Exit.isFailure(yield* Fiber.await(fibers[0]!))).toBe(true)
      yield* settle
      expect(events).toEqual(["a", "b", "c", "d"])
    }))

  it.effect("a waiter interrupted takes no place; a holder interrupted gives its place back", () =>
    Effect.gen(function*() {
      const gate = Gate.make()
      const events: Array<string> = []
      const [a, b, c] = yield* Effect.forEach([1, 2, 3], () => Deferred.make<void, string>())
      const fa = yield* fork(gate.run(1, holding(events, "a", a!)))
      yield* settle
      const fb = yield* fork(gate.run(1, holding(events, "b", b!)))
      const fc = yield* fork(gate.run(1, holding(events, "c", c!)))
      yield* settle
      yield* Fiber.interrupt(fb)
      yield* Fiber.interrupt(fa)
      yield* settle
      // b never started; a's place went to c, the next in line.
      expect(events).toEqual(["a", "c"])
      yield* Deferred.succeed(c!, undefined)
      yield* Fiber.join(fc)
      // Every place is free again: as many as the bound start at once.
      const [d, e] = yield* Effect.forEach([1, 2], () => Deferred.make<void, string>())
      const fd = yield* fork(gate.run(2, holding(events, "d", d!)))
      const fe = yield* fork(gate.run(2, holding(events, "e", e!)))
      yield* settle
      expect(events).toEqual(["a", "c", "d", "e"])
      yield* Deferred.succeed(d!, undefined)
      yield* Deferred.succeed(e!, undefined)
      yield* Fiber.join(fd)
      yield* Fiber.join(fe)
    }))

  it.effect("a wider bound lets the waiters in at the next attempt, as well as it", () =>
    Effect.gen(function*() {
      const gate = Gate.make()
      const events: Array<string> = []
      const dones = yield* Effect.forEach([1, 2, 3], () => Deferred.make<void, string>())
      const fa = yield* fork(gate.run(1, holding(events, "a", dones[0]!)))
      yield* settle
      const fb = yield* fork(gate.run(1, holding(events, "b", dones[1]!)))
      yield* settle
      expect(events).toEqual(["a"])
      const fc = yield* fork(gate.run(3, holding(events, "c", dones[2]!)))
      yield* settle
      // b was let in first, but c, already running, may record its start before b's fiber resumes.
      expect([...events].sort()).toEqual(["a", "b", "c"])
      for (const done of dones) yield* Deferred.succeed(done, undefined)
      for (const fiber of [fa, fb, fc]) yield* Fiber.join(fiber)
    }))
})
