/**
 * Where the density changed inside one window, from the times of its records: the window is split
 * in two at the time that best explains the records as two stretches of constant density (the
 * split with the largest likelihood ratio against one density over the whole window). The walk sizes
 * its next window from the stretch that touches it, so that a burst that begins (or a quiet stretch
 * that follows one) inside a short page is seen at once, not by the full or light page after it.
 *
 * @since 0.2.0
 */

/**
 * The stretch after a change of density: from `start` to the window's end, holding `count` records.
 *
 * @example
 * ```ts
 * import * as ChangePoint from "@broker-history/core/walk/ChangePoint"
 *
 * const tail: ChangePoint.Tail = { start: 1000, count: 100, density: 1, evidence: 60 }
 * assert.strictEqual(tail.count / tail.density, 100)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Tail {
  readonly start: number
  readonly count: number
  /** Records per ms in the stretch (0 when it holds none). */
  readonly density: number
  /** How much better two densities explain the records than one (natural log of the likelihood ratio). */
  readonly evidence: number
}

/** k · log(k / length): a stretch's share of the log-likelihood of its records at their own density. */
const term = (k: number, length: number): number => k === 0 ? 0 : k * Math.log(k / length)

/**
 * The stretch after the most likely change of density in [start, end], given the times of its
 * records ascending; undefined without records. The split is made between two records' milliseconds
 * (or before the first, or after the last), so that each stretch holds whole milliseconds.
 *
 * @example
 * ```ts
 * import * as ChangePoint from "@broker-history/core/walk/ChangePoint"
 *
 * // Ten records in the first second, then a burst of a hundred in 100 ms.
 * const quiet = Array.from({ length: 10 }, (_, i) => i * 100)
 * const burst = Array.from({ length: 100 }, (_, i) => 1000 + i)
 * const tail = ChangePoint.tail([...quiet, ...burst], 0, 1099)
 * assert.strictEqual(tail?.start, 1000)
 * assert.strictEqual(tail?.count, 100)
 * assert.strictEqual(ChangePoint.tail([], 0, 1099), undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const tail = (times: ArrayLike<number>, start: number, end: number): Tail | undefined => {
  const n = times.length
  const span = end - start + 1
  if (n === 0 || span <= 1) return undefined
  const whole = term(n, span)
  let best: Tail | undefined
  const consider = (i: number, at: number) => {
    const before = at - start
    const after = end - at + 1
    if (before <= 0 || after <= 0) return
    const evidence = term(i, before) + term(n - i, after) - whole
    if (best === undefined || evidence > best.evidence) {
      best = { start: at, count: n - i, density: (n - i) / after, evidence }
    }
  }
  // A split with the first i records before it: right after the record before it, or right at the
  // record after it (the likelihood is largest at one of the two).
  for (let i = 0; i <= n; i++) {
    if (i > 0 && i < n && times[i] === times[i - 1]) continue
    if (i > 0) consider(i, times[i - 1]! + 1)
    if (i < n) consider(i, times[i]!)
  }
  return best
}
