/**
 * The window planner of the full-history walk: how wide the next window is. A window is read with one
 * request; a short page is the whole window, a full page means it held more than a page and must be
 * narrowed. Widths follow the density the pages show, aiming at pages as full as `WindowFill` says
 * the history's regularity allows, and never wider than the endpoint's maximum window.
 *
 * A `Plan` is a value: `window` reads it, `observe` returns the plan after a page.
 *
 * @internal
 */
import * as WindowFill from "./WindowFill.js"

/** An inclusive range of milliseconds, read with one request. */
export interface Window {
  readonly start: number
  readonly end: number
  /** The count this window was sized to hold, when it was sized from a density (for `WindowFill`). */
  readonly aim: number | undefined
}

export interface Plan {
  readonly limit: number
  /** Widest window one request may cover (ms); infinite when the endpoint has no maximum. */
  readonly maxWindow: number
  readonly width: number
  /** The count `width` was sized to hold, or undefined when it is a guess (first window, growth cap). */
  readonly aim: number | undefined
  readonly fill: WindowFill.State
}

/** The plan before anything is read: one window over [from, to] if the maximum allows. */
export const make = (limit: number, maxWindow: number | undefined, from: number, to: number): Plan => {
  const widest = maxWindow === undefined ? Number.POSITIVE_INFINITY : Math.max(1, maxWindow)
  return {
    limit,
    maxWindow: widest,
    width: spanning(widest, from, to),
    aim: undefined,
    fill: WindowFill.initial(limit)
  }
}

/** A new range [from, to] (a follow poll): first one window over it again; what was learnt of the fill stays. */
export const restart = (plan: Plan, from: number, to: number): Plan => ({
  ...plan,
  width: spanning(plan.maxWindow, from, to),
  aim: undefined
})

const spanning = (maxWindow: number, from: number, to: number) => Math.min(maxWindow, Math.max(1, to - from + 1))

/** The next window from `cursor`, no further than `to`. */
export const window = (plan: Plan, cursor: number, to: number): Window => {
  const planned = Math.min(plan.width, plan.maxWindow)
  const end = Math.min(to, cursor + planned - 1)
  // Only a window of the planned width tells how good the density estimate was.
  return { start: cursor, end, aim: end - cursor + 1 === planned ? plan.aim : undefined }
}

/**
 * The plan after reading page 1 of `window`. A short page sizes the next window from the density it
 * shows (at most four times as wide); a full page narrows it, to the width of the records' own
 * cluster when they cluster, and at least by half.
 */
export const observe = <A>(
  plan: Plan,
  window: Window,
  page: ReadonlyArray<A>,
  time: (record: A) => number
): Plan => {
  const { limit, maxWindow } = plan
  const count = page.length
  const full = count >= limit
  const span = window.end - window.start + 1
  const fill = window.aim === undefined ? plan.fill : WindowFill.observe(plan.fill, window.aim, count, full, limit)
  const targetFill = WindowFill.fill(fill)
  if (full) {
    let lo = Number.POSITIVE_INFINITY
    let hi = Number.NEGATIVE_INFINITY
    for (let i = 0; i < count; i++) {
      const t = time(page[i]!)
      if (t < lo) lo = t
      if (t > hi) hi = t
    }
    const observed = hi >= lo ? hi - lo + 1 : span
    return {
      limit,
      maxWindow,
      width: Math.max(1, Math.floor(Math.min(span / 2, observed * targetFill))),
      aim: undefined,
      fill
    }
  }
  const grow = count === 0 ? 4 : (limit * targetFill) / count
  const next = Math.floor(span * Math.min(4, grow))
  const width = Math.max(1, Math.min(maxWindow, next))
  const aim = grow <= 4 && next <= maxWindow && next >= 1 ? (count * width) / span : undefined
  return { limit, maxWindow, width, aim, fill }
}
