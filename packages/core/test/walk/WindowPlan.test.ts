import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Prng from "../../src/random/Prng.js"
import * as WindowFill from "../../src/walk/WindowFill.js"
import * as WindowPlan from "../../src/walk/WindowPlan.js"
import { prop } from "../support/Property.js"

const time = (t: number) => t
/** `n` record times spread evenly over [lo, hi], ascending. */
const spread = (n: number, lo: number, hi: number) =>
  Array.from({ length: n }, (_, i) => lo + Math.floor(i * (hi - lo + 1) / n))
const newestFirst = (times: ReadonlyArray<number>) => [...times].sort((a, b) => b - a)

/** The plan after one short page of `count` records over [0, span − 1]: density count / span. */
const after = (limit: number, count: number, span: number, maxWindow?: number) =>
  WindowPlan.observe(
    WindowPlan.make(limit, maxWindow),
    { start: 0, end: span - 1, aim: undefined },
    spread(count, 0, span - 1),
    time
  )

const width = (w: WindowPlan.Window) => w.end - w.start + 1

describe("WindowPlan: where the next window ends", () => {
  it("starts with one window over the whole range, or the widest the endpoint allows", () => {
    expect(WindowPlan.window(WindowPlan.make(500, undefined), 1_000, 9_999)).toEqual({
      start: 1_000,
      end: 9_999,
      aim: undefined
    })
    const capped = WindowPlan.make(500, 86_400_000)
    expect(WindowPlan.window(capped, 0, 10 * 86_400_000 - 1).end).toBe(86_400_000 - 1)
    // A maximum below 1 ms still reads 1 ms at a time.
    expect(WindowPlan.make(500, 0).maxWindow).toBe(1)
  })

  it("a short page sizes the next window to hold fill × limit at its density; the range's end cuts it", () => {
    const plan = after(100, 45, 1_000)
    const fill = WindowFill.fill(plan.fill)
    const next = WindowPlan.window(plan, 1_000, 1e12)
    expect(width(next)).toBe(Math.floor(100 * fill / 0.045))
    expect(next.aim).toBeCloseTo(100 * fill, 0)
    // Cut short by the end of the range: not sized from the density, so it teaches the fill nothing.
    expect(WindowPlan.window(plan, 1_000, 1_010)).toEqual({ start: 1_000, end: 1_010, aim: undefined })
    // Never wider than the maximum.
    expect(width(WindowPlan.window(after(100, 1, 1_000, 2_500), 1_000, 1e12))).toBe(2_500)
  })

  it("an empty page: at most one record in twice its width, so the next window grows fast", () => {
    const next = WindowPlan.window(after(100, 0, 1_000), 1_000, 1e12)
    expect(width(next)).toBeGreaterThanOrEqual(2 * 1_000 * 100 * 0.5)
  })

  it("counts near the aim smooth the density and teach the fill; a far count replaces it", () => {
    const plan = after(100, 45, 1_000)
    const planned = WindowPlan.window(plan, 1_000, 1e12)
    const near = WindowPlan.observe(plan, planned, spread(Math.round(planned.aim! * 1.1), 1_000, planned.end), time)
    expect(near.density! / plan.density!).toBeCloseTo(Math.pow(1.1, 0.3), 2)
    expect(near.fill).not.toBe(plan.fill)
    // A quiet stretch: a quarter of the aim. The density is the new one, the fill unchanged.
    const quiet = Math.round(planned.aim! / 4)
    const changed = WindowPlan.observe(plan, planned, spread(quiet, 1_000, planned.end), time)
    expect(changed.density).toBeCloseTo(quiet / width(planned))
    expect(changed.fill).toBe(plan.fill)
  })

  it("a short page that shows a burst starting inside it: the next window is sized from the burst's density", () => {
    // Quiet: 10 records in 1,000,000 ms. The next window, sized for ~90 quiet records, holds 20 of them
    // and then 60 records of a burst in its last 600 ms (one every 10 ms).
    const plan = after(100, 10, 1_000_000)
    const window = WindowPlan.window(plan, 1_000_000, 1e12)
    const burst = Array.from({ length: 60 }, (_, i) => window.end - 599 + 10 * i)
    const page = newestFirst([...spread(20, window.start, window.end - 100_000), ...burst])
    const seen = WindowPlan.observe(plan, window, page, time)
    expect(seen.density).toBeCloseTo(60 / 600, 3)
    // Not a scatter of counts: the fill is unchanged.
    expect(seen.fill).toBe(plan.fill)
    expect(width(WindowPlan.window(seen, window.end + 1, 1e12))).toBeLessThan(1_000)
  })

  it("a short page whose records stop well before its end: a burst ended, the next window grows past it", () => {
    // Dense: 90 records in 1,000 ms. The next window holds 40 records in its first 400 ms, then none.
    const plan = after(100, 90, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const page = newestFirst(spread(40, window.start, window.start + 399))
    const seen = WindowPlan.observe(plan, window, page, time)
    // At most one record in twice the empty stretch after the last one.
    const empty = window.end - page[0]!
    expect(seen.density).toBeCloseTo(1 / (2 * empty), 6)
  })

  it("a page of one density, in no time order, never moves the density by its record times", () => {
    const plan = after(100, 45, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const times = spread(Math.round(window.aim!), window.start, window.end)
    const shuffled = [...times.slice(1), times[0]!]
    const ordered = WindowPlan.observe(plan, window, times, time)
    expect(WindowPlan.observe(plan, window, shuffled, time)).toEqual(ordered)
  })

  it("a full page in time order teaches the fill the count its records suggest, unless that count is a burst", () => {
    const plan = after(100, 45, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const span = width(window)
    // 100 records over the newest 90 % of the window: about 111 in all, near the aim: a scatter.
    const near = newestFirst(spread(100, window.end - Math.floor(span * 0.9) + 1, window.end))
    const estimate = 100 * span / (window.end - near[99]! + 1)
    expect(WindowPlan.observe(plan, window, near, time).fill).toEqual(
      WindowFill.observe(plan.fill, window.aim!, estimate, false, 100)
    )
    // 100 records over its newest 5 %: ~2,000 in all, a burst: the fill is unchanged.
    const burst = newestFirst(spread(100, window.end - Math.floor(span * 0.05) + 1, window.end))
    expect(WindowPlan.observe(plan, window, burst, time).fill).toBe(plan.fill)
  })

  it("a full page newest first: the part it covers is known, the next window holds limit − 1 of it at most", () => {
    // Density 0.1 / ms seen; the window [1000, 1899] was aimed at ~90 records and held more.
    const plan = after(100, 100, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    // The newest 100 records of the window: one every 8 ms down from its end.
    const page = newestFirst(Array.from({ length: 100 }, (_, i) => window.end - 8 * i))
    const narrowed = WindowPlan.observe(plan, window, page, time)
    expect(narrowed.sample).toMatchObject({ start: window.start, end: window.end, order: "newest-first", repeats: 1 })
    const next = WindowPlan.window(narrowed, window.start, 1e12)
    expect(next.end).toBeLessThan(window.end)
    // What the next window holds for sure (the page's records in it) is less than a page.
    expect(page.filter((t) => t <= next.end).length).toBeLessThan(100)
    // Past the narrowed window, the rest of the page (known exactly) and the density beyond it.
    const rest = WindowPlan.window(narrowed, next.end + 1, 1e12)
    expect(page.filter((t) => t >= rest.start && t <= rest.end).length).toBeLessThan(100)
    expect(rest.end).toBeGreaterThan(window.end)
  })

  it("a full page oldest first: the next window ends before the page's newest millisecond", () => {
    const plan = after(100, 100, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const page = Array.from({ length: 100 }, (_, i) => window.start + 3 * i)
    const narrowed = WindowPlan.observe(plan, window, page, time)
    expect(narrowed.sample?.order).toBe("oldest-first")
    const next = WindowPlan.window(narrowed, window.start, 1e12)
    expect(next.end).toBeLessThan(page[99]!)
    // Known exactly: the page's records before its newest millisecond, 99 of them: one short page.
    expect(page.filter((t) => t <= next.end).length).toBeLessThanOrEqual(99)
    expect(page.filter((t) => t <= next.end).length).toBeGreaterThan(80)
  })

  it("a full page in no time order is a part of the window: the next window covers at most half of it", () => {
    const plan = after(10, 10, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const page = [1_500, 1_100, 1_700, 1_200, 1_300, 1_600, 1_050, 1_400, 1_800, 1_150].filter((t) => t <= window.end)
    const narrowed = WindowPlan.observe(plan, window, [...page, ...page].slice(0, 10), time)
    expect(narrowed.sample?.order).toBe("unordered")
    const next = WindowPlan.window(narrowed, 1_000, 1e12)
    expect(narrowed.sample!.times.filter((t) => t <= next.end).length).toBeLessThanOrEqual(5)
  })

  it("a burst past a quiet stretch (dense page, sparse density) running to the window's end: halving", () => {
    const plan = after(100, 10, 1_000_000)
    const window = { start: 1_000_000, end: 9_999_999, aim: undefined }
    // The window's newest 100 records sit in its last 100 ms.
    const page = newestFirst(spread(100, 9_999_900, 9_999_999))
    const narrowed = WindowPlan.observe(plan, window, page, time)
    expect(WindowPlan.window(narrowed, 1_000_000, 1e12)).toEqual({
      start: 1_000_000,
      end: 1_000_000 + Math.floor((9_999_900 - 1_000_000 - 1) / 2),
      aim: undefined
    })
  })

  it("a cluster past a quiet stretch, ended inside the window: a guess close before it, then halving", () => {
    const plan = after(100, 10, 1_000_000)
    const window = { start: 1_000_000, end: 9_999_999, aim: undefined }
    // The window's newest 100 records sit in 100 ms that end long before the window does.
    const page = newestFirst(spread(100, 9_000_000, 9_000_099))
    const narrowed = WindowPlan.observe(plan, window, page, time)
    const gap = 9_000_000 - 1_000_000
    const pageWidth = 100 / narrowed.sample!.dense
    // First: the cluster starts close before the page: the geometric mean of the two widths.
    const guess = WindowPlan.window(narrowed, 1_000_000, 1e12)
    expect(guess).toEqual({
      start: 1_000_000,
      end: 9_000_000 - 1 - Math.ceil(Math.sqrt(gap * pageWidth)),
      aim: undefined
    })
    // It came back light: the cluster starts later; the rest of the stretch is halved.
    const light = WindowPlan.observe(narrowed, guess, spread(3, guess.start, guess.end), time)
    expect(WindowPlan.window(light, guess.end + 1, 1e12)).toEqual({
      start: guess.end + 1,
      end: guess.end + 1 + Math.floor((9_000_000 - guess.end - 2) / 2),
      aim: undefined
    })
  })

  it("a window that keeps coming back full from the same start is halved", () => {
    const plan = after(100, 100, 1_000)
    const window = WindowPlan.window(plan, 1_000, 1e12)
    const page = newestFirst(spread(100, window.start + 1, window.end))
    const once = WindowPlan.observe(plan, window, page, time)
    const second = WindowPlan.window(once, window.start, 1e12)
    const twice = WindowPlan.observe(once, second, newestFirst(spread(100, second.start + 1, second.end)), time)
    expect(twice.sample?.repeats).toBe(2)
    const third = WindowPlan.window(twice, window.start, 1e12)
    expect(width(third)).toBeLessThanOrEqual(Math.floor(width(second) / 2))
  })

  it("restart covers the new range again and keeps what was learnt of the fill", () => {
    const plan = after(100, 45, 1_000, 50_000)
    const restarted = WindowPlan.restart(plan)
    expect(restarted).toEqual({ ...plan, density: undefined, sample: undefined })
    expect(WindowPlan.window(restarted, 5_000, 7_000)).toEqual({ start: 5_000, end: 7_000, aim: undefined })
  })

  /** Reads a history (record times) the way the walk does, with the planner alone; the service answers newest first. */
  const walk = (times: ReadonlyArray<number>, limit: number, maxWindow: number | undefined, to: number) => {
    const sorted = [...times].sort((a, b) => a - b)
    const check = (ok: boolean, what: string) => {
      if (!ok) throw new Error(what)
    }
    const lower = (t: number) => {
      let lo = 0
      let hi = sorted.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (sorted[mid]! < t) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    let plan = WindowPlan.make(limit, maxWindow)
    let cursor = 0
    const emitted: Array<WindowPlan.Window> = []
    let requests = 0
    let previous: WindowPlan.Window | undefined
    while (cursor <= to) {
      const window = WindowPlan.window(plan, cursor, to)
      check(window.start === cursor && window.end >= window.start && window.end <= to, "a window within the range")
      check(maxWindow === undefined || window.end - window.start + 1 <= Math.max(1, maxWindow), "within the maximum")
      // Narrowing: the window read again from the same start is strictly narrower.
      check(previous === undefined || previous.start !== cursor || window.end < previous.end, "narrowed")
      const first = lower(window.start)
      const last = lower(window.end + 1)
      const answer: Array<number> = []
      for (let i = last - 1; i >= first && answer.length < limit; i--) answer.push(sorted[i]!)
      requests++
      plan = WindowPlan.observe(plan, window, answer, time)
      if (answer.length < limit || window.start === window.end) {
        emitted.push(window)
        cursor = window.end + 1
        previous = undefined
      } else {
        previous = window
      }
      check(requests < 100_000, "the walk ends")
    }
    return { emitted, requests }
  }

  prop(
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
    expect(requests).toBeLessThan(200 * 1.05)
  })

  /**
   * Bursts of many pages each, evenly spaced inside (jittered), with quiet stretches between them:
   * bursts ∈ [1, 4], each 300–1,500 records over 30–600 ms per page's worth, somewhere in 10^8 ms.
   */
  const burstsArb = fc.record({
    seed: fc.integer(),
    bursts: fc.integer({ min: 1, max: 4 }),
    limit: fc.integer({ min: 20, max: 100 })
  }).map(({ bursts, limit, seed }) => {
    const next = Prng.mulberry32(seed)
    const times: Array<number> = []
    for (let b = 0; b < bursts; b++) {
      const count = Prng.int(next, 300, 1_500)
      const gap = Prng.int(next, 30, 600) / limit
      const start = Prng.int(next, 0, 1e8 - Math.ceil(count * gap))
      for (let i = 0; i < count; i++) times.push(start + Math.floor((i + next()) * gap))
    }
    return { times, limit, bursts }
  })

  prop(
    "property: bursts of many pages are read in at most 1.15 × their pages, plus the search for each burst",
    { history: burstsArb },
    ({ history: { bursts, limit, times } }) => {
      const { requests } = walk(times, limit, undefined, 1e8)
      const pages = Math.ceil(times.length / limit)
      // Finding where a burst starts in a quiet stretch is a binary search (each request tells on which
      // side of a time it starts): at most ⌈log2(range)⌉ requests, down to 1 ms; plus the window that
      // overshot into the burst and a light window as it ends.
      const search = Math.ceil(Math.log2(1e8)) + 2
      expect(requests, `${requests} requests for ${pages} pages`).toBeLessThanOrEqual(1.15 * pages + bursts * search)
    },
    { fastCheck: { numRuns: 60 } }
  )
})
