/**
 * The fewest requests any walk needs to read one stream's records exactly: the range cut into
 * windows no wider than the service accepts, each holding fewer records than a page (so one short
 * page proves it complete), a millisecond holding a page or more paged through. The yardstick the
 * whole-broker part compares a sync's request count with.
 *
 * @since 0.2.0
 */

/**
 * What one stream needs read: its records' times (ascending), its inclusive range, the widest
 * `endTime - startTime` the service accepts (`undefined`: any) and the page size.
 *
 * @example
 * import type * as IdealRequests from "@broker-history/bench/IdealRequests"
 * const stream: IdealRequests.Stream = { times: [5, 7], since: 0, until: 99, maxSpan: undefined, limit: 500 }
 */
export interface Stream {
  readonly times: ReadonlyArray<number>
  readonly since: number
  readonly until: number
  readonly maxSpan: number | undefined
  readonly limit: number
}

/**
 * The fewest requests that read `stream` exactly. Greedy from the start, each window as wide as it
 * may be: a window that may hold fewer records is never harder to read, so the greedy cut is the
 * shortest. A millisecond with `n >= limit` records costs `floor(n / limit) + 1` pages (the last one
 * short, which ends it).
 *
 * @example
 * import * as IdealRequests from "@broker-history/bench/IdealRequests"
 * // 1,000 ms, windows of at most 100 ms: 10 windows; no records needed to need them.
 * IdealRequests.minimal({ times: [], since: 0, until: 999, maxSpan: 99, limit: 500 }) // 10
 */
export const minimal = (stream: Stream): number => {
  const { limit, maxSpan, times, until } = stream
  let requests = 0
  let i = 0
  while (i < times.length && times[i] < stream.since) i++
  let cursor = stream.since
  while (cursor <= until) {
    let end = maxSpan === undefined ? until : Math.min(until, cursor + maxSpan)
    const nth = i + limit - 1
    if (nth < times.length && times[nth] <= end) {
      if (times[nth] > cursor) {
        end = times[nth] - 1
      } else {
        // `cursor` alone holds a page or more.
        let n = 0
        while (i < times.length && times[i] === cursor) {
          i++
          n++
        }
        requests += Math.floor(n / limit) + 1
        cursor++
        continue
      }
    }
    requests++
    while (i < times.length && times[i] <= end) i++
    cursor = end + 1
  }
  return requests
}
