/**
 * The follow-at-scale benchmark's (`Staleness`) figures as text: a follower's log line and the
 * table's rows. Pure: values in, values out.
 *
 * @since 0.2.0
 */
import type { Result, Run } from "./StalenessModel.js"

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/**
 * One follower's figures as a log line.
 *
 * @example
 * import * as StalenessTable from "@broker-history/bench/StalenessTable"
 * import type { Staleness } from "@broker-history/bench"
 * declare const run: Staleness.Run
 * console.error(StalenessTable.describe(run))
 */
export const describe = (r: Run) =>
  `staleness ${r.label}: p50 ${(r.p50 / 1000).toFixed(1)} s, p95 ${(r.p95 / 1000).toFixed(1)} s, p99 ${
    (r.p99 / 1000).toFixed(1)
  } s, max ${(r.max / 1000).toFixed(1)} s; ${r.requests} requests (${
    r.requestRate.toFixed(1)
  }/s), ${r.rateLimited} x 429${
    r.rateLimited === 0 ? "" : ` (at ${r.rateLimitedAt.join(", ")} s)`
  }, ${r.missed} missed, ${r.repeated} repeated; bunched ${r.sendBunches} at send, ${r.arrivalBunches} at arrival; event loop delay p99 ${
    r.loopDelayP99.toFixed(0)
  } ms, max ${r.loopDelayMax.toFixed(0)} ms`

/**
 * The table rows of a result: one per follower.
 *
 * @example
 * import * as StalenessTable from "@broker-history/bench/StalenessTable"
 * import type { Staleness } from "@broker-history/bench"
 * declare const result: Staleness.Result
 * const lines = StalenessTable.rows(result).map((row) => row.join(" | "))
 */
export const rows = (result: Result): Array<[string, string, string]> => {
  const o = result.options
  const bound = o.maxIntervalMillis + result.cycleMillis
  return result.rounds.flatMap((round, i) =>
    [round.adaptive, round.roundRobin].map((r): [string, string, string] => [
      `staleness: ${result.streams} streams, ${o.rate}/s, round ${i + 1}, ${r.label}${
        r.label === round.first ? " (first)" : ""
      }`,
      `p50 ${seconds(r.p50)}, p95 ${seconds(r.p95)}, p99 ${seconds(r.p99)}, max ${
        seconds(r.max)
      }; ${r.requests} requests (${
        r.requestRate.toFixed(1)
      }/s), ${r.rateLimited} x 429, ${r.missed} missed, ${r.repeated} repeated`,
      r === round.adaptive
        ? `p99 ${(round.roundRobin.p99 / r.p99).toFixed(1)}x lower (target ≥ 10x); max ≤ ${seconds(bound)}: ${
          r.max <= bound ? "met" : "NOT met"
        }`
        : `cycle ${seconds(result.cycleMillis)}`
    ])
  )
}
