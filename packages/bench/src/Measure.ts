/**
 * Measuring one piece of work: wall time and this process's CPU time (user + system), and the
 * statistics the benchmarks report (medians over rounds).
 *
 * @since 0.1.0
 */

/**
 * Wall and CPU time of one run, in milliseconds.
 *
 * @example
 * import type { Measure } from "@broker-history/bench"
 * const cpuShare = (t: Measure.Timing) => t.cpuMillis / t.wallMillis
 */
export interface Timing {
  readonly wallMillis: number
  readonly cpuMillis: number
}

/** Runs the garbage collector when Node was started with `--expose-gc`; otherwise does nothing. */
export const collectGarbage = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc !== undefined) {
    gc()
    gc()
  }
}

/** True when `gc()` is available (`node --expose-gc`). */
export const canCollectGarbage = (): boolean => typeof (globalThis as { gc?: unknown }).gc === "function"

/**
 * Runs `work` once (after a garbage collection, so that one contender's garbage is not charged to
 * the next) and returns its result with the wall and CPU time it took.
 *
 * @example
 * import { Measure } from "@broker-history/bench"
 * const { result, timing } = await Measure.timed(async () => 42)
 */
export const timed = async <A>(work: () => Promise<A>): Promise<{ readonly result: A; readonly timing: Timing }> => {
  collectGarbage()
  const cpu0 = process.cpuUsage()
  const wall0 = performance.now()
  const result = await work()
  const wallMillis = performance.now() - wall0
  const cpu = process.cpuUsage(cpu0)
  return { result, timing: { wallMillis, cpuMillis: (cpu.user + cpu.system) / 1000 } }
}

/**
 * The median (the mean of the two middle values for an even count); `NaN` for no values.
 *
 * @example
 * import { Measure } from "@broker-history/bench"
 * Measure.median([3, 1, 2]) // 2
 */
export const median = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Heap in use after a full garbage collection, in bytes (needs `--expose-gc` to be meaningful).
 *
 * @example
 * import { Measure } from "@broker-history/bench"
 * const before = Measure.heapAfterGc()
 */
export const heapAfterGc = (): number => {
  collectGarbage()
  return process.memoryUsage().heapUsed
}

/**
 * Formats a number with a fixed count of significant decimals for the table.
 *
 * @example
 * import { Measure } from "@broker-history/bench"
 * Measure.fixed(0.91234, 2) // "0.91"
 */
export const fixed = (value: number, digits: number): string => Number.isFinite(value) ? value.toFixed(digits) : "–"
