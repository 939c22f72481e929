/**
 * Records for the walk's tests (`Walk`, `WalkWidths`, and the Effect 3 line's `WalkChunks`): an
 * in-memory endpoint over rows, the walk's options over it, and clusters of rows at random times.
 */
import { Effect } from "effect"
import * as fc from "fast-check"
import type * as FullHistory from "../../src/FullHistory.js"

export interface R {
  readonly id: string
  readonly t: number
}

/** An in-memory endpoint over `rows` (newest first), recording every request. */
export const endpoint = (rows: ReadonlyArray<R>) => {
  const requests: Array<string> = []
  const fetch = (startTime: number, endTime: number, page: number, limit: number) =>
    Effect.sync(() => {
      requests.push(`${startTime}..${endTime}#${page}`)
      return rows.filter((r) => r.t >= startTime && r.t <= endTime)
        .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
        .slice((page - 1) * limit, page * limit)
    })
  return { fetch, requests }
}

export const options = (
  fetch: FullHistory.Options<R>["fetch"],
  overrides: Partial<FullHistory.Options<R>> = {}
): FullHistory.Options<R> => ({
  fetch,
  time: (r) => r.t,
  key: (r) => r.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  fingerprint: (r) => r.id,
  limit: 5,
  maxWindow: undefined,
  since: 0,
  until: 9_999,
  concurrency: 1,
  ...overrides
})

/** Clusters of up to 8 rows at one time each, times in `[0, 9999]`. */
export const rowsArb = fc.array(
  fc.record({ t: fc.integer({ min: 0, max: 9_999 }), n: fc.integer({ min: 1, max: 8 }) }),
  { maxLength: 30 }
).map((clusters) => clusters.flatMap(({ n, t }, c) => Array.from({ length: n }, (_, i) => ({ id: `${c}-${i}`, t }))))
