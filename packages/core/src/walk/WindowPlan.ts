/**
 * The window planner of the full-history walk: where the next window ends. A window is read with one
 * request; a short page is the whole window, a full page means it held more than a page and must be
 * narrowed. The planner sizes each window to hold as many records as `WindowFill` says the history's
 * regularity allows, never wider than the endpoint's maximum window (the configured one, and the one
 * learned from the service's refusals: `WindowLimit`), from two things it learns:
 *
 * - the density (records per ms) of the stretch the walk is in, from the pages it read: smoothed
 *   while counts come as expected, replaced when they do not (a burst, a quiet stretch), and taken
 *   from the part after a change when a short page's own record times show the density changed
 *   inside its window (a burst that starts or ends there: `ChangePoint`); an empty page, or an empty
 *   stretch at a page's end, allows at most one record in twice its width, so quiet stretches are
 *   crossed in a few requests;
 * - what the last full page showed: its records are real records of that window, so a later window
 *   inside it holds at least the ones it covers. When the page was in time order, newest first (the
 *   reference service's order) or oldest first, the part of the window it covers is known exactly:
 *   a window over that part holds just the records the page showed there, and is sized to a full page
 *   without guessing. Only the sizing relies on the order: a window is still emitted only from a
 *   short page, whatever order the service uses. A newest-first page far denser than the density
 *   before it shows a burst whose start is unknown: if it ended inside the window (a cluster), first
 *   a guess that it starts close before the page's records, then the stretch before them is halved
 *   until it is found.
 *
 * A window read again from the same start is always narrower, and halved from the second full page
 * on, so the walk ends.
 *
 * A `Plan` is a value: `window` reads it, `observe` returns the plan after a page.
 *
 * @since 0.2.0
 */
import * as ChangePoint from "./ChangePoint.js"
import * as WindowFill from "./WindowFill.js"

/** How much of a surprise-free count moves the density (in log), against the noise of one window. */
const smoothing = 0.3
/** A count this far (in log) from what was expected means the density changed, not noise. */
const surprise = 0.5
/**
 * A change of density inside a short page counts when two densities explain its records e^30 times
 * better than one (a page of constant density, random or regular, does not come near), and the
 * stretch after it holds no record or enough to measure its density.
 */
const changeEvidence = 30
const changeRecords = 8
/**
 * What makes the walk look for a change of density in a short page: a gap this many times the mean
 * spacing of its records, or a quartile of its records this far (a share of the window) from where
 * one density puts it.
 */
const unevenGap = 12
const unevenQuartile = 0.15

/**
 * An inclusive range of milliseconds, read with one request.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const window: WindowPlan.Window = WindowPlan.window(WindowPlan.make(500, undefined), 0, 999)
 * assert.deepStrictEqual(window, { start: 0, end: 999, aim: undefined })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Window {
  readonly start: number
  readonly end: number
  /** The count this window was sized to hold, when it was sized from the density alone (for `WindowFill`). */
  readonly aim: number | undefined
}

/**
 * How a full page was ordered, as far as its times show.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const orders: ReadonlyArray<WindowPlan.Order> = ["newest-first", "oldest-first", "unordered"]
 * assert.strictEqual(orders.length, 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Order = "newest-first" | "oldest-first" | "unordered"

/**
 * What the last full page showed of the window it could not hold.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * // A full page of 2 records (limit 2), newest first, over the window [0, 99].
 * const plan = WindowPlan.observe(WindowPlan.make(2, undefined), { start: 0, end: 99, aim: undefined }, [90, 80], (t) => t)
 * const sample: WindowPlan.Sample | undefined = plan.sample
 * assert.deepStrictEqual(sample?.times, [80, 90])
 * assert.strictEqual(sample?.order, "newest-first")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Sample {
  readonly start: number
  readonly end: number
  /** The times of the page's records inside the window, ascending. */
  readonly times: ReadonlyArray<number>
  readonly order: Order
  /** The density where the page covers the window exactly, taken for the stretch after the window. */
  readonly beyond: number
  /** The density between the page's oldest and newest records. */
  readonly dense: number
  /** Full pages in a row for windows starting at `start`. */
  readonly repeats: number
}

/**
 * The planner's state: the page size, the widest window, the density where the walk is, the fill
 * to aim at and the last full page's sample.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const plan: WindowPlan.Plan = WindowPlan.make(500, 86_400_000)
 * assert.strictEqual(plan.density, undefined)
 * assert.strictEqual(plan.maxWindow, 86_400_000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Plan {
  readonly limit: number
  /** Widest window one request may cover (ms); infinite when the endpoint has no maximum. */
  readonly maxWindow: number
  /** Records per ms where the walk is; undefined before the first page (the first window spans the range). */
  readonly density: number | undefined
  readonly fill: WindowFill.State
  readonly sample: Sample | undefined
}

/**
 * The plan before anything is read: the first window spans the range, if the maximum allows.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const plan = WindowPlan.make(500, 86_400_000)
 * assert.deepStrictEqual(WindowPlan.window(plan, 0, 10 * 86_400_000), { start: 0, end: 86_399_999, aim: undefined })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (limit: number, maxWindow: number | undefined): Plan => ({
  limit,
  maxWindow: maxWindow === undefined ? Number.POSITIVE_INFINITY : Math.max(1, maxWindow),
  density: undefined,
  fill: WindowFill.initial(limit),
  sample: undefined
})

/**
 * A new range (a follow poll): first one window over it again; what was learnt of the fill stays.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const read = WindowPlan.observe(WindowPlan.make(500, undefined), { start: 0, end: 999, aim: undefined }, [1, 2], (t) => t)
 * assert.strictEqual(WindowPlan.restart(read).density, undefined)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const restart = (plan: Plan): Plan => ({
  ...plan,
  density: undefined,
  sample: undefined
})

/**
 * The next window from `cursor`, no further than `to`: as far as the records it is expected to hold
 * allow. From a density alone it aims at fill × limit records; records the last full page showed
 * exactly count as themselves, and the guessed ones beside them get a margin (see `reach`), so that
 * only the guessed part of a window is kept light. Records of a page in no time order are a part of
 * the window's: each stands for two guessed ones. Never wider than the endpoint's maximum, nor than
 * `learned`: the widest window the service is known to accept (`WindowLimit.widest`; infinite until
 * it refuses one as too wide).
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * // 100 records in the first 1,000 ms: about a tenth of a record per ms.
 * const times = Array.from({ length: 100 }, (_, i) => i * 10)
 * const plan = WindowPlan.observe(WindowPlan.make(500, undefined), { start: 0, end: 999, aim: undefined }, times, (t) => t)
 * const next = WindowPlan.window(plan, 1000, 1_000_000)
 * // Sized to hold a bit less than a page at that density.
 * assert.ok(next.end - next.start > 3_000 && next.end - next.start < 5_000)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const window = (plan: Plan, cursor: number, to: number, learned: number = Number.POSITIVE_INFINITY): Window => {
  const widest = Math.min(to, cursor + Math.min(plan.maxWindow, learned) - 1)
  if (plan.density === undefined) return { start: cursor, end: widest, aim: undefined }
  const fill = WindowFill.fill(plan.fill)
  const r = reach(cursor, plan.limit, fill)
  const sample = plan.sample
  if (sample === undefined || cursor < sample.start || cursor > sample.end) {
    r.stretch(widest, plan.density)
    const end = r.end(widest)
    return { start: cursor, end, aim: end < widest ? r.aim() : undefined }
  }
  const times = sample.times
  const n = times.length
  if (sample.order === "newest-first") {
    // The page holds every record after its oldest time; before it, only a density is known.
    const lo = times[0]!
    // Denser than the walk has seen: a burst starts somewhere before the page's records. While the
    // stretch before them would hold more than a page at the page's density, halve it; once shorter,
    // count it at that density.
    const burst = sample.dense > plan.density * Math.exp(surprise)
    const gap = lo - cursor
    if (burst && gap > 0 && sample.dense * gap > plan.limit) {
      // When the page's records end well before its window does (a cluster, not a busy stretch that
      // runs on), first a guess that it starts close before them too, at the geometric mean of a
      // page's width and the stretch; then plain halving.
      const hi = times[n - 1]!
      const guess = sample.start === cursor && sample.repeats === 1 && (sample.end - hi) * sample.dense > 2
      const end = guess
        ? lo - 1 - Math.ceil(Math.sqrt(gap * plan.limit / sample.dense))
        : cursor + Math.floor((gap - 1) / 2)
      return { start: cursor, end: Math.max(cursor, end), aim: undefined }
    }
    r.stretch(lo - 1, burst ? sample.dense : plan.density)
    for (let i = 0; i < n; i++) if (times[i]! >= cursor) r.point(times[i]!, 1)
  } else if (sample.order === "oldest-first") {
    // The page holds every record before its newest time; after it, only a density is known.
    for (let i = 0; i < n; i++) if (times[i]! >= cursor) r.point(times[i]!, 1)
    r.stretch(sample.end, plan.density)
  } else {
    for (let i = 0; i < n; i++) if (times[i]! >= cursor) r.point(times[i]!, 2 / fill)
  }
  r.stretch(widest, sample.beyond)
  let end = r.end(widest)
  if (sample.start === cursor) {
    // The same window is being narrowed: strictly, and by half when the pages keep coming back full.
    end = Math.min(end, sample.end - 1)
    if (sample.repeats >= 2) end = Math.min(end, cursor + Math.floor((sample.end - cursor + 1) / 2) - 1)
  }
  end = Math.max(cursor, end)
  return { start: cursor, end, aim: end === r.end(widest) && end < widest ? r.aim() : undefined }
}

/**
 * How far a window from `start` reaches with `limit` records' room: stretches of time and records met
 * one after another, each at the cost of what it is expected to hold; never as far as `limit` records
 * a page showed (certain to be a full page).
 */
interface Reach {
  /** Records at `density` per ms up to `until` (inclusive), each costing 1 / fill. */
  readonly stretch: (until: number, density: number) => void
  /** A record at `time` (ascending calls), costing `weight`. */
  readonly point: (time: number, weight: number) => void
  /** The last millisecond of the window (at least its first). */
  readonly end: (widest: number) => number
  /** The count expected, when a density alone decided where the window ends (for `WindowFill`). */
  readonly aim: () => number | undefined
}

const reach = (start: number, limit: number, fill: number): Reach => {
  let expected = 0
  let weight = 0
  let exact = 0
  let at = start
  let stop: number | undefined
  let byDensity = false
  /** The most records a density may promise beside `weight` of known ones. */
  const room = (known: number) => {
    if (known === 0) return fill * limit
    // Beside known records, the guessed ones get a margin: two standard deviations of their count
    // and the fill's share (solving e / fill + 2 √e ≤ limit − 1 − known for e).
    const rest = limit - 1 - known
    if (rest <= 0) return 0
    const root = fill * (Math.sqrt(1 + rest / fill) - 1)
    return root * root
  }
  return {
    stretch: (until, density) => {
      if (stop !== undefined || until < at) return
      const length = until - at + 1
      const left = room(weight) - expected
      if (density * length <= left) {
        expected += density * length
        at = until + 1
        return
      }
      const fits = Math.max(0, Math.floor(left / density))
      expected += density * fits
      stop = at + fits - 1
      byDensity = weight === 0
    },
    point: (time, w) => {
      if (stop !== undefined) return
      if (weight + w > limit - 1 || expected > room(weight + w) || exact + 1 >= limit) {
        stop = time - 1
        return
      }
      weight += w
      exact++
      at = Math.max(at, time + 1)
    },
    end: (widest) => Math.max(start, Math.min(widest, stop ?? widest)),
    aim: () => byDensity ? expected : undefined
  }
}

/**
 * The plan after reading page 1 of `window`. A short page gives the density: smoothed while its count
 * is near what the density predicted, replaced when it is not (a burst, a quiet stretch), and taken
 * from the stretch after a change of density when its records show one (`ChangePoint`); an empty
 * page allows at most one record in twice its width. A full page becomes the sample the next windows
 * inside it are planned from.
 *
 * @example
 * ```ts
 * import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
 *
 * const plan = WindowPlan.make(500, undefined)
 * const afterEmpty = WindowPlan.observe(plan, { start: 0, end: 999, aim: undefined }, [], (t: number) => t)
 * assert.strictEqual(afterEmpty.density, 1 / 2000)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const observe = <A>(
  plan: Plan,
  window: Window,
  page: ReadonlyArray<A>,
  time: (record: A) => number
): Plan => {
  const { limit } = plan
  const count = page.length
  const span = window.end - window.start + 1
  const full = count >= limit
  if (full && span > 1) {
    const sample = sampleOf(plan, window, page, time)
    const fill = window.aim === undefined ? plan.fill : learnFromFull(plan, window.aim, sample)
    return { ...plan, fill, sample, density: plan.density ?? sample.beyond }
  }
  // Past the sampled window, what it showed is of no more use.
  const sample = plan.sample !== undefined && window.end < plan.sample.end ? plan.sample : undefined
  // A crowded millisecond says little of the density around it: at least that of the page that found it.
  if (full) {
    const fill = window.aim === undefined ? plan.fill : WindowFill.observe(plan.fill, window.aim, count, true, limit)
    if (plan.density === undefined) return { ...plan, fill, sample, density: count / span }
    const density = plan.sample !== undefined ? Math.max(plan.density, plan.sample.beyond) : plan.density
    return { ...plan, fill, sample, density }
  }
  if (count === 0) {
    return { ...plan, sample, density: Math.min(plan.density ?? Number.POSITIVE_INFINITY, 1 / (2 * span)) }
  }
  // How far the count is (in log) from what the density predicted for the whole window.
  const off = plan.density === undefined ? Number.POSITIVE_INFINITY : Math.log(count / (plan.density * span))
  const change = changeIn(window, page, time, Math.abs(off) >= surprise)
  if (change !== undefined) {
    // The density changed inside the window: the next window lies beside the stretch after the change.
    const density = change.count > 0
      ? change.density
      : Math.min(plan.density ?? Number.POSITIVE_INFINITY, 1 / (2 * (window.end - change.start + 1)))
    return { ...plan, sample, density }
  }
  // A count far from the aim is a change of density, not the scatter the fill allows for: it moves
  // the density, not the fill.
  const fill = window.aim !== undefined && Math.abs(Math.log(count / window.aim)) < surprise
    ? WindowFill.observe(plan.fill, window.aim, count, false, limit)
    : plan.fill
  const density = Math.abs(off) < surprise ? plan.density! * Math.exp(smoothing * off) : count / span
  return { ...plan, fill, density, sample }
}

/**
 * What a full page sized from the density alone teaches the fill. In time order its records cover a
 * known part of the window, which says about how many the whole window holds: near the aim, that
 * count is the window's scatter; far above it, a burst (the density's business). In no time order,
 * only that the window held at least a page.
 */
const learnFromFull = (plan: Plan, aim: number, sample: Sample): WindowFill.State => {
  const n = sample.times.length
  const covered = n < 2
    ? undefined
    : sample.order === "newest-first"
    ? sample.end - sample.times[0]! + 1
    : sample.order === "oldest-first"
    ? sample.times[n - 1]! - sample.start + 1
    : undefined
  if (covered === undefined) return WindowFill.observe(plan.fill, aim, plan.limit, true, plan.limit)
  const estimate = n * (sample.end - sample.start + 1) / covered
  return Math.abs(Math.log(estimate / aim)) < surprise
    ? WindowFill.observe(plan.fill, aim, estimate, false, plan.limit)
    : plan.fill
}

/**
 * A change of density inside the window of a short page, when its records show one for sure (see
 * `ChangePoint`). The search (the costlier part) runs only when the page looks uneven: a count far
 * from the prediction, a gap many times the records' mean spacing (a burst that ends or starts
 * inside the window), or a quartile of the records far from the matching quarter of the window. The
 * records must be in time order (either way), else the page is left alone: this is planning only.
 */
const changeIn = <A>(
  window: Window,
  page: ReadonlyArray<A>,
  time: (record: A) => number,
  surprising: boolean
): ChangePoint.Tail | undefined => {
  const n = page.length
  const span = window.end - window.start + 1
  const down = time(page[0]!) > time(page[n - 1]!)
  const quarter = Math.floor(n / 4)
  const half = Math.floor(n / 2)
  const threeQuarters = Math.floor(3 * n / 4)
  let uneven = surprising
  let widest = 0
  let previous = window.start - 1
  for (let i = 0; i < n; i++) {
    const t = time(page[down ? n - 1 - i : i]!)
    if (t < previous || t < window.start || t > window.end) return undefined
    widest = Math.max(widest, t - previous)
    previous = t
    // The records at a quarter, half and three quarters of the count lie near those shares of the window.
    if (i === quarter || i === half || i === threeQuarters) {
      if (Math.abs((t - window.start + 0.5) / span - (i + 0.5) / n) > unevenQuartile) uneven = true
    }
  }
  widest = Math.max(widest, window.end + 1 - previous)
  if (!uneven && widest * n < unevenGap * span) return undefined
  const times = new Float64Array(n)
  for (let i = 0; i < n; i++) times[i] = time(page[down ? n - 1 - i : i]!)
  const change = ChangePoint.tail(times, window.start, window.end)
  return change !== undefined && change.evidence >= changeEvidence &&
      (change.count === 0 || change.count >= changeRecords)
    ? change
    : undefined
}

const sampleOf = <A>(plan: Plan, window: Window, page: ReadonlyArray<A>, time: (record: A) => number): Sample => {
  const { end, start } = window
  let up = true
  let down = true
  const inside: Array<number> = []
  let previous = Number.NaN
  for (let i = 0; i < page.length; i++) {
    const t = time(page[i]!)
    if (t > previous) down = false
    if (t < previous) up = false
    previous = t
    if (t >= start && t <= end) inside.push(t)
  }
  inside.sort((a, b) => a - b)
  const n = inside.length
  const order: Order = up === down ? "unordered" : down ? "newest-first" : "oldest-first"
  const lo = n > 0 ? inside[0]! : start
  const hi = n > 0 ? inside[n - 1]! : end
  let beyond: number
  if (order === "newest-first" && hi > lo) {
    let above = 0
    for (const t of inside) if (t > lo) above++
    beyond = above / (end - lo)
  } else if (order === "oldest-first" && hi > lo) {
    let below = 0
    for (const t of inside) if (t < hi) below++
    beyond = below / (hi - start)
  } else {
    beyond = 2 * Math.max(n, 1) / (end - start + 1)
  }
  const dense = n > 1 && hi > lo ? (n - 1) / (hi - lo) : beyond
  const repeats = plan.sample !== undefined && plan.sample.start === start ? plan.sample.repeats + 1 : 1
  return { start, end, times: inside, order, beyond, dense, repeats }
}
