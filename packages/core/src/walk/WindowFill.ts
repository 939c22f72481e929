/**
 * How full the full-history walk aims its pages. A window sized from the density seen so far holds a
 * count that scatters around the aim; a page that comes back full costs one more request (the window
 * is narrowed and read again), a page that comes back light costs a share of a request. The aim
 * follows how well counts were predicted: the spread σ of log(count / aim) is tracked, and the fill f
 * is the one with the fewest expected requests per record, (1 + P(overflow)) / f, where an overflow
 * is log(count / aim) > log(1 / f) under a normal spread. A regular history gets the fullest pages
 * (up to the cap), a random or bursty one lighter ones: an overflow costs one request, a lighter page
 * costs a share of one on every request.
 *
 * @since 0.2.0
 */

/**
 * The estimator's state: the smoothed variance of log(count / aim), the fill it gives, and how many
 * windows it has learnt from.
 *
 * @example
 * ```ts
 * import * as WindowFill from "@broker-history/core/walk/WindowFill"
 *
 * const state: WindowFill.State = WindowFill.initial(500)
 * assert.strictEqual(state.seen, 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  readonly variance: number
  readonly fill: number
  readonly seen: number
}

const minFill = 0.5
// The cap: when a history's density drifts, a fill closer to 100 % overflows on every drift.
const maxFill = 0.98
// Slow enough that one surprising window does not swing the fill for the next twenty; the first
// windows are averaged with the prior as equals, so that a regular history leaves it quickly.
const smoothing = 0.1

/** Standard normal upper tail, P(Z > z) (Abramowitz–Stegun 26.2.17, error < 1e-7). */
const upperTail = (z: number): number => {
  if (z < 0) return 1 - upperTail(-z)
  const t = 1 / (1 + 0.2316419 * z)
  const poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
  return Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI) * poly
}

/**
 * Before anything is seen: the scatter of a Poisson count around 90 % of `limit`, which aims at about
 * 90 % full pages (what a random history of that density gives at best).
 *
 * @example
 * ```ts
 * import * as WindowFill from "@broker-history/core/walk/WindowFill"
 *
 * const fill = WindowFill.fill(WindowFill.initial(500))
 * assert.ok(fill > 0.8 && fill < 0.95)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const initial = (limit: number): State => withVariance(1 / Math.max(1, 0.9 * limit))

/**
 * The state for a variance, learnt from `seen` windows (the fill is computed once here, not for every window).
 *
 * @example
 * ```ts
 * import * as WindowFill from "@broker-history/core/walk/WindowFill"
 *
 * // Counts that come as predicted: the fullest pages; a spread of 10 % around the aim: lighter ones.
 * assert.strictEqual(WindowFill.fill(WindowFill.withVariance(0)), 0.98)
 * assert.ok(WindowFill.fill(WindowFill.withVariance(0.01)) < 0.9)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const withVariance = (variance: number, seen = 0): State => ({ variance, fill: bestFill(variance), seen })

/**
 * The fill to aim at (share of `limit`): the fewest expected requests per record.
 *
 * @example
 * ```ts
 * import * as WindowFill from "@broker-history/core/walk/WindowFill"
 *
 * assert.strictEqual(WindowFill.fill(WindowFill.withVariance(0)), 0.98)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const fill = (state: State): number => state.fill

const bestFill = (variance: number): number => {
  const sigma = Math.sqrt(variance)
  if (sigma < 1e-6) return maxFill
  let best = minFill
  let bestCost = Number.POSITIVE_INFINITY
  for (let f = minFill; f <= maxFill + 1e-9; f += 0.01) {
    const cost = (1 + upperTail(Math.log(1 / f) / sigma)) / f
    if (cost < bestCost) {
      bestCost = cost
      best = f
    }
  }
  return Math.min(maxFill, best)
}

/**
 * Learns from one window that was sized to hold `aim` records: it held `count` (a short page), or at
 * least `limit` (`full`).
 *
 * @example
 * ```ts
 * import * as WindowFill from "@broker-history/core/walk/WindowFill"
 *
 * // Windows that held just what they were sized for: the aim moves up towards full pages.
 * let state = WindowFill.initial(500)
 * for (let i = 0; i < 50; i++) state = WindowFill.observe(state, 450, 450, false, 500)
 * assert.ok(WindowFill.fill(state) > WindowFill.fill(WindowFill.initial(500)))
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const observe = (state: State, aim: number, count: number, full: boolean, limit: number): State => {
  if (!(aim > 0)) return state
  // A full page says only "at least limit": count it as twice that far off, so overflows pull the
  // aim down quickly.
  const error = full ? 2 * Math.max(Math.log(limit / aim), 0.05) : Math.log(Math.max(count, 0.5) / aim)
  const weight = Math.max(smoothing, 1 / (state.seen + 2))
  return withVariance((1 - weight) * state.variance + weight * error * error, state.seen + 1)
}
