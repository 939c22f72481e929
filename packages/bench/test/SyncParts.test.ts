// The sync benchmark's other pure parts: reading the CLI's summary line and the service's request log,
// the medians and per-round ratios, the table's rows, and the resolve hook that starts the compiled CLI.
import { describe, expect, it } from "@effect/vitest"
import { SyncSummary } from "../src/CliInternals.js"
import * as SyncAtBudget from "../src/SyncAtBudget.js"
import * as SyncTable from "../src/SyncTable.js"
import type * as SyncThroughput from "../src/SyncThroughput.js"

describe("SyncAtBudget", () => {
  it("parseSummary reads the line the CLI prints", () => {
    const line = SyncSummary.syncedLine({
      streams: 321,
      db: "/tmp/demo.db",
      totals: { transfers: 12_345, deposits: 678, batches: 40 },
      counts: { transfers: 12_345, deposits: 678 },
      requests: { requests: 1_234, retries: 3 },
      seconds: 125.04,
      profile: false
    })
    expect(SyncAtBudget.parseSummary(`progress…\n${line}\n`)).toEqual({
      transfers: 12_345,
      deposits: 678,
      requests: 1_234,
      retries: 3,
      seconds: 125
    })
    expect(SyncAtBudget.parseSummary("synced 0 streams")).toBeUndefined()
  })
})

const sample = (
  round: number,
  target: SyncThroughput.Target,
  contender: SyncThroughput.Sample["contender"],
  rowsPerSecond: number,
  exact = true
): SyncThroughput.Sample => ({
  round,
  target,
  contender,
  rows: 1_000,
  requests: 0,
  wallMillis: 1_000_000 / rowsPerSecond,
  cpuMillis: 2 * round + 1,
  serviceCpuMillis: 0,
  rowsPerSecond,
  exact
})

describe("SyncTable", () => {
  const samples = [
    sample(0, "sqlite", "sync", 50),
    sample(0, "sqlite", "raw", 100),
    sample(0, "none", "fetch", 300),
    sample(0, "pg", "sync", 40),
    sample(1, "sqlite", "raw", 200),
    sample(1, "none", "fetch", 400),
    sample(1, "sqlite", "sync", 150, false),
    sample(1, "pg", "sync", 60)
  ]

  it("summarise: per target and contender, medians and ratios to the same round's raw loop", () => {
    const summaries = SyncTable.summarise(samples)
    expect(summaries.map((s) => `${s.target}:${s.contender}`)).toEqual([
      "sqlite:sync",
      "sqlite:raw",
      "none:fetch",
      "pg:sync"
    ])
    const [sync, raw, fetch, pg] = summaries
    expect([sync!.rowsPerSecond, sync!.ratio, sync!.ratioRange, sync!.exact]).toEqual([100, 0.625, [0.5, 0.75], false])
    expect(sync!.cpuMicrosPerRow).toBe(2)
    expect([raw!.ratio, raw!.ratioRange, raw!.exact]).toEqual([1, [1, 1], true])
    // The fetch alone against raw SQLite; PostgreSQL without a raw loop has no ratio.
    expect([fetch!.ratio, fetch!.ratioRange]).toEqual([2.5, [2, 3]])
    expect(pg!.rowsPerSecond).toBe(50)
    expect(pg!.ratio).toBeNaN()
  })

  it("rows: the fetch, SQLite's three contenders, PostgreSQL's reason for skipping", () => {
    const result: SyncThroughput.Result = {
      options: {
        seed: 1,
        transfers: 500,
        deposits: 100,
        subAccounts: 2,
        rounds: 2,
        batchSize: 500,
        concurrency: 4,
        defaultBudget: false
      },
      expected: { transfers: 900, deposits: 100, streams: 9 },
      samples: [],
      summaries: SyncTable.summarise([
        ...samples.filter((s) => s.target !== "pg"),
        sample(0, "sqlite", "store", 80),
        sample(1, "sqlite", "store", 160)
      ]),
      postgresSkipped: "skipped: no PostgreSQL",
      atDefaultBudget: undefined
    }
    const rows = SyncTable.rows(result)
    expect(rows.map((r) => r[0])).toEqual([
      "sync: fetch only (9 streams, 1000 rows)",
      "sync → SQLite (SyncRun in-process, fetch + insert)",
      "sync: the store alone → SQLite (SyncStore applies, rows pre-fetched)",
      "sync: raw better-sqlite3 upsert loop → SQLite (rows pre-fetched)",
      "sync → PostgreSQL (SyncRun in-process, fetch + insert)",
      "sync: the store alone → PostgreSQL (SyncStore applies, rows pre-fetched)",
      "sync: raw pg upsert loop → PostgreSQL (rows pre-fetched)"
    ])
    expect(rows[0]![2]).toBe("2.50x raw SQLite (rounds 2.00–3.00)")
    expect(rows[1]![1]).toContain(", NOT EXACT")
    expect(rows[1]![2]).toBe("0.63x raw (rounds 0.50–0.75); target ≥ 0.8x")
    expect(rows[2]![2]).toBe("0.80x raw (rounds 0.80–0.80)")
    expect(rows.slice(4).map((r) => r[1])).toEqual(Array(3).fill("skipped: no PostgreSQL"))
  })
})
