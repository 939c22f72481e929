/**
 * How full the full-history walk aims its pages. A window sized from the density seen so far holds a
 * count that scatters around the aim; a page that comes back full costs one more request (the window
 * is narrowed and read again), a page that comes back light costs a share of a request. The aim
 * follows how well counts were predicted: the spread of log(count / aim) is tracked, and the fill is
 * set so that a window overflows about 1 time in 100 (2.3 standard deviations of headroom). Regular
 * histories get pages up to 99 % full; bursty ones back off.
 *
 * @internal
 */

/** The estimator's state: the smoothed variance of log(count / aim). */
export interface State {
  readonly variance: number
}

const headroom = 2.3
const minFill = 0.5
const maxFill = 0.99
const smoothing = 0.2

/**
 * Before anything is seen: the scatter of a Poisson count around 90 % of `limit`, which aims at about
 * 90 % full pages (what a random history of that density gives at best).
 */
export const initial = (limit: number): State => ({ variance: 1 / Math.max(1, 0.9 * limit) })

/** The fill to aim at (share of `limit`). */
export const fill = (state: State): number =>
  Math.min(maxFill, Math.max(minFill, Math.exp(-headroom * Math.sqrt(state.variance))))

/**
 * Learns from one window that was sized to hold `aim` records: it held `count` (a short page), or at
 * least `limit` (`full`).
 */
export const observe = (state: State, aim: number, count: number, full: boolean, limit: number): State => {
  if (!(aim > 0)) return state
  // A full page says only "at least limit": count it as twice that far off, so overflows pull the
  // aim down quickly.
  const error = full ? 2 * Math.max(Math.log(limit / aim), 0.05) : Math.log(Math.max(count, 0.5) / aim)
  return { variance: (1 - smoothing) * state.variance + smoothing * error * error }
}
