/**
 * The sync benchmark's (`SyncThroughput`) figures reduced and written out: each contender's medians
 * over the rounds with its per-round ratios to the raw loop, and the bench table's rows. Pure: values
 * in, values out.
 *
 * @since 0.2.0
 */
import * as Measure from "./Measure.js"
import type { Result, Sample, Summary, Target } from "./SyncModel.js"

/**
 * One summary per target and contender (in the order they first appear): medians over the rounds,
 * and the median and range of the per-round ratios of rows/s to the raw loop of the same target in
 * the same round (for the fetch alone, to the raw SQLite loop; `NaN` where that round has none).
 *
 * @example
 * import * as SyncTable from "@broker-history/bench/SyncTable"
 * import type { SyncThroughput } from "@broker-history/bench"
 * declare const samples: ReadonlyArray<SyncThroughput.Sample>
 * const ratios = SyncTable.summarise(samples).map((s) => s.ratio)
 */
export const summarise = (samples: ReadonlyArray<Sample>): ReadonlyArray<Summary> => {
  const keys = [...new Set(samples.map((s) => `${s.target}:${s.contender}`))]
  return keys.map((k) => {
    const mine = samples.filter((s) => `${s.target}:${s.contender}` === k)
    const { target, contender } = mine[0]!
    const baseline = target === "none" ? "sqlite" : target
    const ratios = mine.map((s) => {
      const raw = samples.find((r) => r.round === s.round && r.target === baseline && r.contender === "raw")
      return raw === undefined ? Number.NaN : s.rowsPerSecond / raw.rowsPerSecond
    })
    return {
      target,
      contender,
      rowsPerSecond: Measure.median(mine.map((s) => s.rowsPerSecond)),
      cpuMicrosPerRow: Measure.median(mine.map((s) => (s.cpuMillis * 1000) / s.rows)),
      serviceCpuMicrosPerRow: Measure.median(mine.map((s) => (s.serviceCpuMillis * 1000) / s.rows)),
      wallMillis: Measure.median(mine.map((s) => s.wallMillis)),
      ratio: Measure.median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)] as const,
      exact: mine.every((s) => s.exact)
    }
  })
}

/**
 * The part's rows of the bench table: the fetch alone, then per database the sync, the store alone and
 * the raw loop (PostgreSQL's three rows say why it was skipped), then the run at the default budget when there is one.
 *
 * @example
 * import * as SyncTable from "@broker-history/bench/SyncTable"
 * import type { SyncThroughput } from "@broker-history/bench"
 * declare const result: SyncThroughput.Result
 * const lines = SyncTable.rows(result).map((row) => row.join(" | "))
 */
export const rows = (result: Result): Array<[string, string, string]> => {
  const out: Array<[string, string, string]> = []
  const find = (target: Target, contender: Sample["contender"]) =>
    result.summaries.find((s) => s.target === target && s.contender === contender)
  const figures = (s: Summary) =>
    `${Measure.fixed(s.rowsPerSecond / 1000, 1)}k rows/s, ${Measure.fixed(s.cpuMicrosPerRow, 1)} CPU µs/row${
      s.contender === "fetch" || s.contender === "sync"
        ? ` (+ service ${Measure.fixed(s.serviceCpuMicrosPerRow, 1)})`
        : ""
    }, ${(s.wallMillis / 1000).toFixed(2)} s${s.exact ? "" : ", NOT EXACT"}`
  const ratio = (s: Summary, of: string) =>
    `${Measure.fixed(s.ratio, 2)}x ${of} (rounds ${s.ratioRange.map((r) => Measure.fixed(r, 2)).join("–")})`
  const e = result.expected
  const fetch = find("none", "fetch")
  if (fetch !== undefined) {
    out.push([
      `sync: fetch only (${e.streams} streams, ${e.transfers + e.deposits} rows)`,
      figures(fetch),
      ratio(fetch, "raw SQLite")
    ])
  }
  for (const [target, name, driver] of [["sqlite", "SQLite", "better-sqlite3"], ["pg", "PostgreSQL", "pg"]] as const) {
    const sync = find(target, "sync")
    const store = find(target, "store")
    const raw = find(target, "raw")
    const labels = [
      `sync → ${name} (SyncRun in-process, fetch + insert)`,
      `sync: the store alone → ${name} (SyncStore applies, rows pre-fetched)`,
      `sync: raw ${driver} upsert loop → ${name} (rows pre-fetched)`
    ]
    if (sync === undefined || store === undefined || raw === undefined) {
      for (const label of labels) out.push([label, result.postgresSkipped ?? "not measured", ""])
      continue
    }
    out.push([labels[0]!, figures(sync), `${ratio(sync, "raw")}; target ≥ 0.8x`])
    out.push([labels[1]!, figures(store), ratio(store, "raw")])
    out.push([labels[2]!, figures(raw), "1.00x"])
  }
  const b = result.atDefaultBudget
  if (b !== undefined) {
    out.push([
      `sync: demo's data, \`broker-history sync\` (${
        b.runs.startsWith("dist") ? "compiled" : "sources through tsx"
      }) at the default budget (${b.budget}/s)`,
      `${b.requests} requests, ${b.retries} retries, ${b.rows} rows in ${(b.wallMillis / 1000).toFixed(1)} s (bound ${
        (b.boundMillis / 1000).toFixed(1)
      } s)`,
      `${b.overBound.toFixed(3)}x bound (command alone ${b.commandOverBound.toFixed(3)}x); target ≤ 1.1x`
    ])
  }
  return out
}
