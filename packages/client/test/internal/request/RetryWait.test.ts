import { Clock, Effect, Fiber } from "effect"
import * as Effects from "../../../src/internal/line/Effects.js"
import * as RetryWait from "../../../src/internal/request/RetryWait.js"
import { describe, expect, fork, it, TestClock } from "../../support/line/Testing.js"

describe("RetryWait", () => {
  it.effect("in place by default: the wait is the wait", () =>
    Effect.gen(function*() {
      const fiber = yield* fork(RetryWait.waiting(Effect.sleep("1 second")))
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
    }))

  it.effect("lending: a request waiting out a Retry-After gives its permit back, and takes it again in turn", () =>
    Effect.gen(function*() {
      const inFlight = yield* Effects.makeSemaphore(1)
      const events: Array<string> = []
      const log = (event: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => events.push(`${t} ${event}`)))
      // A: a request (100 ms), refused, waits 1 s, then a second attempt (100 ms).
      const a = Effect.gen(function*() {
        yield* log("a sends")
        yield* Effect.sleep("100 millis")
        yield* RetryWait.waiting(Effect.andThen(log("a waits"), Effect.sleep("1 second")))
        yield* log("a sends again")
        yield* Effect.sleep("100 millis")
        yield* log("a done")
      })
      // B: one request of 1,500 ms, started while A waits.
      const b = Effect.gen(function*() {
        yield* log("b sends")
        yield* Effect.sleep("1500 millis")
        yield* log("b done")
      })
      const fa = yield* fork(RetryWait.lending(inFlight)(a))
      yield* TestClock.adjust("50 millis")
      const fb = yield* fork(RetryWait.lending(inFlight)(b))
      yield* TestClock.adjust("3 seconds")
      yield* Fiber.join(fa)
      yield* Fiber.join(fb)
      // B starts when A begins its wait; A sends again only once B is done (one permit).
      expect(events).toEqual([
        "0 a sends",
        "100 a waits",
        "100 b sends",
        "1600 b done",
        "1600 a sends again",
        "1700 a done"
      ])
      // Every permit is back.
      expect(yield* Effects.withPermits(inFlight, 1, Effect.succeed("free"))).toBe("free")
    }))

  it.effect("lending: interrupted while waiting, the permit it lent is not given back twice", () =>
    Effect.gen(function*() {
      const inFlight = yield* Effects.makeSemaphore(1)
      const waiter = yield* fork(RetryWait.lending(inFlight)(RetryWait.waiting(Effect.never)))
      yield* TestClock.adjust("1 millis")
      yield* Fiber.interrupt(waiter)
      // One permit, free: two holders in turn, never two at once.
      const holders: Array<number> = []
      let inside = 0
      const hold = Effect.acquireUseRelease(
        Effect.sync(() => holders.push(++inside)),
        () => Effect.sleep("10 millis"),
        () => Effect.sync(() => inside--)
      )
      const both = yield* fork(
        Effect.all([Effects.withPermits(inFlight, 1, hold), Effects.withPermits(inFlight, 1, hold)], { concurrency: 2 })
      )
      yield* TestClock.adjust("20 millis")
      yield* Fiber.join(both)
      expect(holders).toEqual([1, 1])
    }))

  it.effect("makeAhead: a window waiting out a Retry-After gives back its planned place and its place in flight", () =>
    Effect.gen(function*() {
      const ahead = yield* RetryWait.makeAhead(1)
      const events: Array<string> = []
      const log = (event: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => events.push(`${t} ${event}`)))
      const window = (name: string, refused: boolean) =>
        Effect.gen(function*() {
          yield* ahead.plan
          yield* log(`${name} planned`)
          yield* ahead.fetch(Effect.gen(function*() {
            yield* Effect.sleep("100 millis")
            if (refused) yield* RetryWait.waiting(Effect.sleep("1 second"))
            yield* log(`${name} fetched`)
          }))
        })
      const a = yield* fork(window("a", true))
      yield* TestClock.adjust("10 millis")
      const b = yield* fork(window("b", false))
      const c = yield* fork(window("c", false))
      yield* TestClock.adjust("2 seconds")
      yield* Effect.forEach([a, b, c], Fiber.join)
      // One place: b is planned only when a starts waiting, c when b is done; a is fetched again
      // after its wait, when the place in flight is free.
      expect(events).toEqual([
        "0 a planned",
        "100 b planned",
        "200 b fetched",
        "200 c planned",
        "300 c fetched",
        "1100 a fetched"
      ])
    }))
})
