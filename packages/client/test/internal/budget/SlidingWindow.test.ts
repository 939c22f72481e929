import * as Prng from "@broker-history/core/random/Prng"
import { Duration, Effect, Fiber } from "effect"
import * as SlidingWindow from "../../../src/internal/budget/SlidingWindow.js"
import { describe, expect, fork, it, TestClock, withClock } from "../../support/line/Testing.js"

/**
 * The times of `n` starts, `limit` per `interval` ms, on a clock whose `i`-th sleep ends `lateness(i)` ms
 * after it was due (an event loop that was busy).
 */
const lateStarts = (lateness: (i: number) => number, limit: number, interval: number, n: number) => {
  let now = 0
  let sleeps = 0
  return withClock(
    Effect.gen(function*() {
      const take = yield* SlidingWindow.make(limit, Duration.millis(interval))
      const out: Array<number> = []
      for (let i = 0; i < n; i++) {
        yield* take
        out.push(now)
      }
      return out
    }),
    {
      now: () => now,
      sleep: (duration) =>
        Effect.sync(() => {
          now += Duration.toMillis(duration) + lateness(sleeps++)
        })
    }
  )
}

const maxInAnyWindow = (times: ReadonlyArray<number>, interval: number) =>
  Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + interval).length))

describe("SlidingWindow", () => {
  it.effect("on time: at most `limit` starts in any interval, the next one as soon as allowed", () =>
    Effect.gen(function*() {
      const times = yield* lateStarts(() => 0, 3, 1000, 9)
      expect(times).toEqual([0, 0, 0, 1000, 1000, 1000, 2000, 2000, 2000])
    }))

  it.effect("a late wake-up counts from when the attempt actually started", () =>
    Effect.gen(function*() {
      // The first sleep ends 300 ms late, the others on time. Counting the reserved time (1000), the
      // third attempt would start at 2000, 700 ms after the second actually did.
      const times = yield* lateStarts((i) => i === 0 ? 300 : 0, 1, 1000, 4)
      expect(times).toEqual([0, 1300, 2300, 3300])
      // Random lateness: still never more than `limit` starts in any interval.
      const next = Prng.mulberry32(7)
      const random = () => Prng.int(next, 0, 199)
      for (const limit of [1, 2, 3, 5]) {
        const starts = yield* lateStarts(random, limit, 1000, 40)
        expect(maxInAnyWindow(starts, 1000)).toBeLessThanOrEqual(limit)
      }
    }))

  it.effect("a gap spreads the starts evenly, and rounding to whole milliseconds does not slow the pace", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(16)
      // Three per 1,000 ms, at least a third of it apart: 0, 334, 667, 1000 (not 0, 334, 668, 1002:
      // the gap counts from the unrounded time); then a span after the start three places before.
      const pace = (): SlidingWindow.Pace => ({
        count: 3,
        spanMillis: 1000,
        notBefore: 0,
        gapMillis: 1000 / 3,
        catchUp: 0
      })
      const starts: Array<number> = []
      const fibers = yield* Effect.forEach(
        Array.from({ length: 7 }),
        () => fork(Effect.map(window.take(pace), (start) => starts.push(start.at)))
      )
      yield* TestClock.adjust("3 seconds")
      yield* Effect.forEach(fibers, Fiber.join)
      expect(starts).toEqual([0, 334, 667, 1000, 1334, 1668, 2001])
      // Without a gap the same callers start three at once.
      const bursting = yield* SlidingWindow.makeWindow(16)
      const burst: Array<number> = []
      const free = (): SlidingWindow.Pace => ({ count: 3, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
      const more = yield* Effect.forEach(
        Array.from({ length: 4 }),
        () => fork(Effect.map(bursting.take(free), (start) => burst.push(start.at)))
      )
      yield* TestClock.adjust("2 seconds")
      yield* Effect.forEach(more, Fiber.join)
      expect(burst).toEqual([3000, 3000, 3000, 4000])
    }))

  it.effect("a caller late for the schedule makes up at most `catchUp` slots, then the gap holds again", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(64)
      const pace = (): SlidingWindow.Pace => ({ count: 10, spanMillis: 1000, notBefore: 0, gapMillis: 100, catchUp: 3 })
      const startsOf = (n: number) =>
        Effect.gen(function*() {
          const starts: Array<number> = []
          const fibers = yield* Effect.forEach(
            Array.from({ length: n }),
            () => fork(Effect.map(window.take(pace), (start) => starts.push(start.at)))
          )
          yield* TestClock.adjust("1 second")
          yield* Effect.forEach(fibers, Fiber.join)
          return starts
        })
      // Six callers at once: one on schedule and three made up, then one per gap.
      expect(yield* startsOf(6)).toEqual([0, 0, 0, 0, 100, 200])
      // Idle until 1,400 ms: the schedule is behind by more than three slots; the same again.
      yield* TestClock.adjust("400 millis")
      expect((yield* startsOf(6)).map((t) => t - 1_400)).toEqual([0, 0, 0, 0, 100, 200])
    }))

  it.effect("withdrawn: slots reserved for later are taken again at the pace of when their callers wake", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(40)
      let count = 10
      const pace = (): SlidingWindow.Pace => ({ count, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
      const starts: Array<number> = []
      const fibers = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        // Forked in order from this fiber (a fiber forked by a worker of a concurrent `forEach` would be
        // that worker's child, interrupted as it ends).
        () => fork(Effect.map(window.take(pace), (start) => starts.push(start.at)))
      )
      yield* TestClock.adjust("500 millis")
      // Ten started at 0, ten wait for 1000; the pace drops to 2 per second.
      expect(starts).toEqual(Array(10).fill(0))
      count = 2
      window.withdraw(500)
      expect(window.startedWithin(0, 10_000)).toBe(10)
      yield* TestClock.adjust("10 seconds")
      yield* Effect.forEach(fibers, Fiber.join)
      expect(starts.slice(10)).toEqual([1000, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, 5000])
    }))
})
