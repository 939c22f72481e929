import { Clock, Effect } from "effect"
import * as SlidingWindow from "../../../src/internal/budget/SlidingWindow.js"
import { describe, expect, it, TestClock } from "../../support/line/Testing.js"

const pace = (count: number, spanMillis: number, notBefore = 0) => () => ({
  count,
  spanMillis,
  notBefore,
  gapMillis: 0,
  catchUp: 0
})

describe("SlidingWindow: a pace that changes, and what the service made of each attempt", () => {
  it.effect("the pace of each attempt applies from its own reservation; a pause holds every attempt", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(8)
      const a = yield* window.take(pace(2, 1000))
      const b = yield* window.take(pace(2, 1000))
      expect([a.at, b.at]).toEqual([0, 0])
      // One per 500 ms from now on, and nothing before 700.
      const later = Effect.all([window.take(pace(1, 500, 700)), window.take(pace(1, 500))])
      const [c, d] = yield* Effect.map(
        Effect.all([TestClock.adjust("2 seconds"), later], { concurrency: 2 }),
        ([, b]) => b
      )
      expect([c.at, d.at]).toEqual([700, 1200])
    }))

  it.effect("a fractional pace reserves whole milliseconds, so the clock never reads a fraction", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(4)
      // 3 per 1000/0.7 ms: spans of 1428.57… ms.
      const [, starts] = yield* Effect.all([
        TestClock.adjust("10 seconds"),
        Effect.all(Array.from({ length: 4 }, () => window.take(pace(1, 1000 / 0.7))), { concurrency: "unbounded" })
      ], { concurrency: 2 })
      expect(starts.map((s) => s.at)).toEqual([0, 1429, 2858, 4287])
      expect(Number.isInteger(yield* Clock.currentTimeMillis)).toBe(true)
      yield* Clock.currentTimeNanos
    }))

  it.effect("the most accepted attempts in one span, counting neither refused nor unanswered ones", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(16)
      const starts: Array<SlidingWindow.Start> = []
      // Five at 0, five at 600, three at 1200.
      for (const at of [0, 600, 1200]) {
        if (at > 0) yield* TestClock.adjust(`${at - starts[starts.length - 1]!.at} millis`)
        for (let i = 0; i < (at === 1200 ? 3 : 5); i++) starts.push(yield* window.take(pace(16, 1000)))
      }
      starts.forEach((s, i) => {
        if (i !== 4 && i !== 12) window.answered(s, i !== 3)
      })
      // 0..600: 3 accepted + 1 refused + 1 unanswered at 0, 5 accepted at 600.
      expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 1000)).toBe(3 + 5)
      expect(window.mostAccepted(600, 1000)).toBe(5 + 2)
      expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 100)).toBe(5)
      expect(window.startedWithin(0, 600)).toBe(10)
    }))

  it.effect("an answer for a slot taken again since is ignored", () =>
    Effect.gen(function*() {
      const window = yield* SlidingWindow.makeWindow(1)
      const first = yield* window.take(pace(1, 10))
      yield* TestClock.adjust("10 millis")
      const second = yield* window.take(pace(1, 10))
      window.answered(first, true)
      expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 1000)).toBe(0)
      window.answered(second, true)
      expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 1000)).toBe(1)
    }))
})
