/**
 * The figures of the follow-at-scale benchmark (`Staleness`) from what was inserted and what a
 * follower emitted: staleness quantiles, overall and by the rank of the record's stream, and how often
 * requests bunched up beyond the service's limit. Pure: values in, values out.
 *
 * @since 0.2.0
 */

/**
 * The q-quantile of ascending values (nearest rank); `NaN` for no values.
 *
 * @example
 * import * as StalenessStats from "@broker-history/bench/StalenessStats"
 * StalenessStats.quantile([1, 2, 3, 4], 0.5) // 2
 */
export const quantile = (sorted: ReadonlyArray<number>, q: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

/**
 * How many times more than `limit` of the (ascending) times fall within one `windowMillis`.
 *
 * @example
 * import * as StalenessStats from "@broker-history/bench/StalenessStats"
 * StalenessStats.bunches([0, 10, 20, 1_000], 2, 1_000) // 1
 */
export const bunches = (times: ReadonlyArray<number>, limit: number, windowMillis: number): number => {
  let n = 0
  for (let i = limit; i < times.length; i++) if (times[i]! - times[i - limit]! < windowMillis) n++
  return n
}

/** Rank groups reported: the busiest stream, the next few, the rest of the top 100, the tail. */
const rankGroups: ReadonlyArray<readonly [number, number]> = [[1, 1], [2, 3], [4, 10], [11, 100], [101, Infinity]]

/**
 * One inserted record: its id, when it was inserted (real ms), its stream's rank (1 = busiest),
 * whether it is measured.
 *
 * @example
 * import type * as StalenessStats from "@broker-history/bench/StalenessStats"
 * const insert: StalenessStats.Insert = { id: "1", at: 0, rank: 1, measured: true }
 */
export interface Insert {
  readonly id: string
  readonly at: number
  readonly rank: number
  readonly measured: boolean
}

/**
 * What one follower saw: the first emission time of each record (real ms), and the repeats.
 *
 * @example
 * import type * as StalenessStats from "@broker-history/bench/StalenessStats"
 * const seen: StalenessStats.Seen = { at: new Map(), repeated: 0 }
 */
export interface Seen {
  readonly at: Map<string, number>
  repeated: number
}

/**
 * The staleness figures of what a follower saw of `inserts`, in simulated ms (real ms × `scale`):
 * quantiles over the measured inserts, and by the rank of their stream; `missed` counts every insert
 * never emitted, measured or not.
 *
 * @example
 * import * as StalenessStats from "@broker-history/bench/StalenessStats"
 * const figures = StalenessStats.stalenessOf(
 *   { at: new Map([["1", 250]]), repeated: 0 },
 *   [{ id: "1", at: 0, rank: 1, measured: true }],
 *   4
 * )
 * figures.p50 // 1000
 */
export const stalenessOf = (seen: Seen, inserts: ReadonlyArray<Insert>, scale: number) => {
  const staleness: Array<number> = []
  const groups = rankGroups.map(() => [] as Array<number>)
  let missed = 0
  for (const insert of inserts) {
    const at = seen.at.get(insert.id)
    if (at === undefined) missed++
    else if (insert.measured) {
      staleness.push((at - insert.at) * scale)
      groups[rankGroups.findIndex(([from, to]) => insert.rank >= from && insert.rank <= to)]!.push(
        (at - insert.at) * scale
      )
    }
  }
  staleness.sort((a, b) => a - b)
  for (const g of groups) g.sort((a, b) => a - b)
  return {
    emitted: staleness.length,
    missed,
    repeated: seen.repeated,
    p50: quantile(staleness, 0.5),
    p95: quantile(staleness, 0.95),
    p99: quantile(staleness, 0.99),
    max: staleness.length === 0 ? NaN : staleness[staleness.length - 1]!,
    byRank: rankGroups.map(([from, to], i) => ({
      from,
      to,
      records: groups[i]!.length,
      p50: quantile(groups[i]!, 0.5),
      p99: quantile(groups[i]!, 0.99)
    }))
  }
}
