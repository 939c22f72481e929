import { describe, expect, it } from "vitest"
import * as SlidingWindow from "../../src/budget/SlidingWindow.js"

const pace = (count: number, spanMillis: number, gapMillis = 0, catchUp = 0) => (): SlidingWindow.Pace => ({
  count,
  spanMillis,
  notBefore: 0,
  gapMillis,
  catchUp
})

describe("SlidingWindow: the window's state, on times the caller reads from its clock", () => {
  it("at most `count` starts in any span: the next reservation waits for the oldest to leave it", () => {
    const window = SlidingWindow.make(8)
    const waits = Array.from({ length: 7 }, () => window.reserve(pace(3, 1000), 0)).map((r) => [r.at, r.wait])
    expect(waits).toEqual([[0, 0], [0, 0], [0, 0], [1000, 1000], [1000, 1000], [1000, 1000], [2000, 2000]])
  })

  it("a caller woken late starts when it woke, and the window counts that start", () => {
    const window = SlidingWindow.make(4)
    window.reserve(pace(1, 1000), 0)
    const second = window.reserve(pace(1, 1000), 0)
    expect(second.wait).toBe(1000)
    // Woken 300 ms late: it starts at 1300, so the next start is a span after that, not after 1000.
    expect(window.woke(second, 1300)).toEqual({ at: 1300, waited: 1000, slot: second.slot })
    expect(window.reserve(pace(1, 1000), 1300).at).toBe(2300)
  })

  it("a gap spreads the starts, counted from the unrounded schedule", () => {
    const window = SlidingWindow.make(16)
    const at = Array.from({ length: 7 }, () => window.reserve(pace(3, 1000, 1000 / 3), 0).at)
    expect(at).toEqual([0, 334, 667, 1000, 1334, 1668, 2001])
  })

  it("withdrawn: a slot reserved for later is taken back, and its caller reserves again", () => {
    const window = SlidingWindow.make(8)
    const now = window.reserve(pace(1, 1000), 0)
    const later = window.reserve(pace(1, 1000), 0)
    window.withdraw(500)
    expect(window.woke(later, 1000)).toBeUndefined()
    expect(window.startedWithin(0, 10_000)).toBe(1)
    expect(now.wait).toBe(0)
  })

  it("answers: what the service accepted, and an answer for a slot taken again since is ignored", () => {
    const window = SlidingWindow.make(1)
    const first = window.reserve(pace(1, 10), 0)
    const second = window.reserve(pace(1, 10), 10)
    window.answered({ at: first.at, waited: 0, slot: first.slot }, true)
    expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 1000)).toBe(0)
    window.answered({ at: second.at, waited: 0, slot: second.slot }, true)
    expect(window.mostAccepted(Number.NEGATIVE_INFINITY, 1000)).toBe(1)
    expect(window.acceptedWithin(10, 11)).toBe(1)
  })
})
