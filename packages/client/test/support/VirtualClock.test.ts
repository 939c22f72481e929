import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, TestClock, TestContext } from "effect"
import * as fc from "fast-check"
import * as VirtualClock from "./VirtualClock.js"

/**
 * Fibers that each sleep the given waits in turn, logging who woke when; the time moves by `steps`.
 * Returns the log and the time at the end.
 */
const sleepers = <E, R>(
  waits: ReadonlyArray<ReadonlyArray<number>>,
  steps: ReadonlyArray<number>,
  adjust: (millis: number) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function*() {
    const log: Array<[number, number]> = []
    for (const [fiber, list] of waits.entries()) {
      yield* Effect.fork(Effect.forEach(list, (wait) =>
        Effect.sleep(wait).pipe(
          Effect.zipRight(Clock.currentTimeMillis),
          Effect.map((at) => log.push([fiber, at]))
        )))
    }
    for (const step of steps) yield* adjust(step)
    return { log, end: yield* Clock.currentTimeMillis }
  })

const virtual = (millis: number) => VirtualClock.adjust(millis)
const testClock = (millis: number) => TestClock.adjust(millis)

describe("VirtualClock", () => {
  it.effect("wakes sleepers in the order of their times, those due at once the last to sleep first", () =>
    Effect.gen(function*() {
      const waits = [[30, 10, 5], [10, 30], [40, 5], [20, 20, 5]]
      const run = yield* VirtualClock.run(sleepers(waits, [25, 100], virtual))
      // At 40 ms four are due: they fell asleep at 30, 20, 10 and 0 ms; at 45 three, at 40 ms in the
      // order they woke.
      expect(run.log).toEqual([[1, 10], [3, 20], [0, 30], [0, 40], [3, 40], [1, 40], [2, 40], [2, 45], [3, 45], [
        0,
        45
      ]])
      expect(run.end).toBe(125)
    }))

  it.effect("property: the same wake-ups, times and order as the TestClock", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }), { minLength: 1, maxLength: 4 }),
          fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 3 }),
          async (waits, steps) => {
            const onVirtual = await Effect.runPromise(VirtualClock.run(sleepers(waits, steps, virtual)))
            const onTestClock = await Effect.runPromise(
              sleepers(waits, steps, testClock).pipe(Effect.provide(TestContext.TestContext))
            )
            expect(onVirtual).toEqual(onTestClock)
          }
        ),
        { numRuns: 20 }
      )
    ))

  it.effect("time never goes back: every fiber sees it rise, and a negative duration moves it by nothing", () =>
    Effect.gen(function*() {
      const waits = Array.from({ length: 8 }, (_, i) => Array.from({ length: 50 }, (_, k) => (i * 7 + k * 13) % 23))
      const run = yield* VirtualClock.run(sleepers(waits, [300, 0.5, -100, 900], virtual))
      const times = run.log.map(([, at]) => at)
      expect(times.length).toBe(8 * 50)
      expect(times).toEqual([...times].sort((a, b) => a - b))
      expect(run.end).toBe(1200.5)
      const forever = yield* VirtualClock.run(VirtualClock.adjust(Duration.infinity)).pipe(
        Effect.as("adjusted"),
        Effect.catchAllDefect((defect) => Effect.succeed(String(defect)))
      )
      expect(forever).toMatch(/infinite duration/)
    }))

  it.effect("between adjustments the body forks, joins and interrupts fibers as anywhere else", () =>
    VirtualClock.run(Effect.gen(function*() {
      const done = yield* Effect.fork(Effect.as(Effect.sleep(10), "woke"))
      const asleep = yield* Effect.fork(Effect.sleep(1000))
      yield* VirtualClock.adjust(10)
      expect(yield* Fiber.join(done)).toBe("woke")
      yield* Fiber.interrupt(asleep)
      expect(yield* Clock.currentTimeMillis).toBe(10)
    })))

  it.effect("a fiber waiting on promises that settle without time passing goes on before the time moves", () =>
    VirtualClock.run(
      Effect.gen(function*() {
        const log: Array<string> = []
        // Two turns of the event loop, then a mock Response's body.
        const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
        yield* Effect.fork(
          Effect.sleep(10).pipe(
            Effect.zipRight(turn),
            Effect.zipRight(turn),
            Effect.zipRight(Effect.promise(() => new Response("body").text())),
            Effect.flatMap((text) => Effect.sync(() => log.push(`read ${text}`)))
          )
        )
        yield* Effect.fork(Effect.sleep(11).pipe(Effect.zipRight(Effect.sync(() => log.push("at 11")))))
        yield* VirtualClock.adjust(20)
        expect(log).toEqual(["read body", "at 11"])
        expect(yield* Clock.currentTimeMillis).toBe(1_000_020)
      }),
      { start: 1_000_000 }
    ))

  it.effect("a fiber that never suspends is reported, not waited for", () =>
    Effect.gen(function*() {
      const stalled = yield* Effect.flip(VirtualClock.run(
        Effect.gen(function*() {
          yield* Effect.fork(Effect.sleep(5).pipe(Effect.zipRight(Effect.forever(Effect.void))))
          yield* VirtualClock.adjust(10)
        }),
        { maxTasks: 1000 }
      ))
      expect(stalled).toEqual(new VirtualClock.Stalled({ at: 5, tasks: 1000 }))
      expect(stalled.message).toMatch(/never waits/)
    }))
})
