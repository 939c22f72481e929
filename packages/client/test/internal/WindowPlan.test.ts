import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as WindowFill from "../../src/internal/WindowFill.js"
import * as WindowPlan from "../../src/internal/WindowPlan.js"

const time = (t: number) => t
/** A page of `n` records at `t` (or spread over [lo, hi]). */
const page = (n: number, lo: number, hi = lo) => Array.from({ length: n }, (_, i) => lo + (i % (hi - lo + 1)))

describe("WindowPlan: how wide the next window is", () => {
  it("starts with one window over the whole range, or the widest the endpoint allows", () => {
    expect(WindowPlan.window(WindowPlan.make(500, undefined, 1_000, 9_999), 1_000, 9_999)).toEqual({
      start: 1_000,
      end: 9_999,
      aim: undefined
    })
    const capped = WindowPlan.make(500, 86_400_000, 0, 10 * 86_400_000 - 1)
    expect(WindowPlan.window(capped, 0, 10 * 86_400_000 - 1).end).toBe(86_400_000 - 1)
    // A maximum below 1 ms still reads 1 ms at a time.
    expect(WindowPlan.make(500, 0, 0, 100).maxWindow).toBe(1)
  })

  it("a window stops at the end of the range", () => {
    const plan = WindowPlan.make(10, undefined, 0, 1_000)
    expect(WindowPlan.window(plan, 990, 1_000)).toEqual({ start: 990, end: 1_000, aim: undefined })
  })

  it("a full page narrows the window to the records' own cluster, at least by half", () => {
    const plan = WindowPlan.make(10, undefined, 0, 9_999)
    const window = WindowPlan.window(plan, 0, 9_999)
    // Ten records between 100 and 109: the next window is about that wide, at most the fill's share.
    const clustered = WindowPlan.observe(plan, window, page(10, 100, 109), time)
    expect(clustered.width).toBe(Math.floor(10 * WindowFill.fill(plan.fill)))
    expect(clustered.aim).toBeUndefined()
    // Spread over the whole window: half of it.
    const spread = WindowPlan.observe(plan, window, page(10, 0, 9_999).map((_, i) => i * 1_000), time)
    expect(spread.width).toBe(5_000)
  })

  it("a short page sizes the next window from its density, at most four times as wide", () => {
    const plan = WindowPlan.make(100, undefined, 0, 1_000_000)
    const window = { start: 0, end: 999, aim: undefined }
    // 45 records in 1,000 ms: the next window aims at fill × 100 records.
    const next = WindowPlan.observe(plan, window, page(45, 0, 999), time)
    const fill = WindowFill.fill(plan.fill)
    expect(next.width).toBe(Math.floor(1_000 * (100 * fill) / 45))
    expect(next.aim).toBeCloseTo(45 * next.width / 1_000)
    // Empty: four times as wide, and no aim (a guess).
    const empty = WindowPlan.observe(plan, window, [], time)
    expect(empty.width).toBe(4_000)
    expect(empty.aim).toBe(0)
    // Never wider than the maximum.
    const capped = WindowPlan.observe(WindowPlan.make(100, 2_500, 0, 1_000_000), window, [], time)
    expect(capped.width).toBe(2_500)
  })

  it("learns the fill only from windows of the planned width", () => {
    const plan = WindowPlan.observe(
      WindowPlan.make(100, undefined, 0, 1_000_000),
      { start: 0, end: 999, aim: undefined },
      page(45, 0, 999),
      time
    )
    const planned = WindowPlan.window(plan, 1_000, 1_000_000)
    expect(planned.aim).toBe(plan.aim)
    // Cut short by the end of the range: not sized from the density.
    expect(WindowPlan.window(plan, 1_000, 1_010).aim).toBeUndefined()
    const learnt = WindowPlan.observe(plan, planned, page(100, 1_000, planned.end), time)
    expect(learnt.fill).not.toBe(plan.fill)
    const unlearnt = WindowPlan.observe(plan, { ...planned, aim: undefined }, page(100, 1_000, planned.end), time)
    expect(unlearnt.fill).toBe(plan.fill)
  })

  it("restart covers the new range again and keeps what was learnt of the fill", () => {
    const plan = WindowPlan.observe(
      WindowPlan.make(100, 50_000, 0, 1_000_000),
      { start: 0, end: 999, aim: 90 },
      page(45, 0, 999),
      time
    )
    const restarted = WindowPlan.restart(plan, 5_000, 7_000)
    expect(restarted).toEqual({ ...plan, width: 2_001, aim: undefined })
    expect(WindowPlan.restart(plan, 0, 1_000_000).width).toBe(50_000)
  })

  /** Reads a history (record times) the way the walk does, with the planner alone. */
  const walk = (times: ReadonlyArray<number>, limit: number, maxWindow: number | undefined, to: number) => {
    const sorted = [...times].sort((a, b) => a - b)
    const check = (ok: boolean, what: string) => {
      if (!ok) throw new Error(what)
    }
    let plan = WindowPlan.make(limit, maxWindow, 0, to)
    let cursor = 0
    const emitted: Array<WindowPlan.Window> = []
    let requests = 0
    let first = 0
    while (cursor <= to) {
      const window = WindowPlan.window(plan, cursor, to)
      check(window.start === cursor && window.end >= window.start && window.end <= to, "a window within the range")
      check(maxWindow === undefined || window.end - window.start + 1 <= Math.max(1, maxWindow), "within the maximum")
      while (first < sorted.length && sorted[first]! < window.start) first++
      const answer: Array<number> = []
      for (let i = first; i < sorted.length && sorted[i]! <= window.end && answer.length < limit; i++) {
        answer.push(sorted[i]!)
      }
      requests++
      plan = WindowPlan.observe(plan, window, answer, time)
      check(plan.width >= 1, "a width of at least 1 ms")
      if (answer.length < limit || window.start === window.end) {
        emitted.push(window)
        cursor = window.end + 1
      } else {
        // Narrowed: the next window from the same cursor is at most half as wide.
        const next = WindowPlan.window(plan, cursor, to)
        check(next.end - cursor + 1 <= Math.floor((window.end - window.start + 1) / 2), "narrowed by half")
      }
      check(requests < 100_000, "the walk ends")
    }
    return { emitted, requests }
  }

  it.prop(
    "property: the windows emitted cover the range in order, each within the maximum, each one short page (or 1 ms)",
    {
      times: fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 300 }),
      limit: fc.integer({ min: 1, max: 40 }),
      maxWindow: fc.option(fc.integer({ min: 20, max: 20_000 }), { nil: undefined })
    },
    ({ limit, maxWindow, times }) => {
      const { emitted } = walk(times, limit, maxWindow, 50_000)
      expect(emitted[0]!.start).toBe(0)
      expect(emitted[emitted.length - 1]!.end).toBe(50_000)
      for (let i = 1; i < emitted.length; i++) expect(emitted[i]!.start).toBe(emitted[i - 1]!.end + 1)
      for (const w of emitted) {
        const count = times.filter((t) => t >= w.start && t <= w.end).length
        if (w.start !== w.end) expect(count).toBeLessThan(limit)
      }
    },
    { fastCheck: { numRuns: 100 } }
  )

  it("a regular history is read in about as many requests as it has pages", () => {
    // One record a second for 100,000 s, pages of 500: 200 pages' worth.
    const times = Array.from({ length: 100_000 }, (_, i) => i * 1_000)
    const { requests } = walk(times, 500, undefined, 100_000 * 1_000)
    expect(requests).toBeLessThan(200 * 1.1)
  })
})
