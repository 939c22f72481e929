/**
 * Sync throughput: `SyncRun` (what `broker-history sync` runs, in this process) reads a seeded
 * reference service (child process, loopback, budget far above what it uses) into SQLite and into
 * PostgreSQL, against a raw loop that upserts the same rows, already fetched, in batches of the same
 * size over the same driver (better-sqlite3, `pg`) into the same tables, against the sync's store
 * alone (the same batches applied through `SyncStore`) and against the fetch alone (the sync's
 * streams read and dropped). Rounds alternate the contenders; rows per second,
 * CPU of this process, medians and per-round ratios to the raw loop. Optionally the demo's data is
 * then synced by the CLI in its own process (compiled, as installed) at the default request budget:
 * wall time against requests / budget.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import * as Measure from "./Measure.js"
import * as ServiceProcess from "./ServiceProcess.js"
import * as SyncAtBudget from "./SyncAtBudget.js"
import * as SyncContenders from "./SyncContenders.js"
import * as SyncDatabase from "./SyncDatabase.js"
import type { BudgetRun, Options, Result, Sample, Summary, Target } from "./SyncModel.js"
import * as SyncRawLoop from "./SyncRawLoop.js"
import * as SyncTable from "./SyncTable.js"
import * as TempDir from "./TempDir.js"

export type { BudgetRun, Options, Result, Sample, Summary, Target }

/**
 * Starts the seeded service in a child process, reads the plan once (warm-up; its records are the raw
 * loops' input), then runs the rounds, each contender in turn (the first rotating): the sync and the
 * raw loop into SQLite and into PostgreSQL (when `BROKER_TEST_PG_URL` reaches one), and the fetch
 * alone. With `defaultBudget`, then syncs the demo's data through the CLI at the default budget.
 *
 * @example
 * import { SyncThroughput } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(SyncThroughput.run({ seed: 1, transfers: 500, deposits: 100, subAccounts: 2, rounds: 1, batchSize: 500, concurrency: 4, defaultBudget: false }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-bench-sync-")
    const pg = yield* SyncDatabase.postgres()
    const pgUrl = "url" in pg ? pg.url : undefined
    if ("skipped" in pg) log(`sync into PostgreSQL ${pg.skipped}`)
    const service = yield* ServiceProcess.spawn([
      "--no-log",
      "--seed",
      String(options.seed),
      "--transfers",
      String(options.transfers),
      "--deposits",
      String(options.deposits),
      "--sub-accounts",
      String(options.subAccounts),
      "--rate-limit",
      String(SyncContenders.unboundedBudget),
      "--rate-window-ms",
      "1000"
    ])
    const p = SyncContenders.plan(options)
    const warm = yield* SyncContenders.fetchAll(service.baseUrl, p, options, true)
    const expected = { ...warm.counts, streams: p.transferStreams.length + 1 }
    const total = expected.transfers + expected.deposits
    const exactCounts = (c: { transfers: number; deposits: number }) =>
      c.transfers === expected.transfers && c.deposits === expected.deposits
    log(
      `sync plan: ${expected.streams} streams, ${expected.transfers} transfers + ${expected.deposits} deposits, ${warm.requests} requests`
    )
    // One sync before the rounds, so that every contender runs warm.
    yield* SyncContenders.syncInto(yield* SyncDatabase.fresh("sqlite", dir, pgUrl, "warm"), service.baseUrl, p, options)

    const targets: ReadonlyArray<"sqlite" | "pg"> = pgUrl === undefined ? ["sqlite"] : ["sqlite", "pg"]
    const jobs = [
      ...targets.flatMap((t) => [
        { target: t, contender: "sync" as const },
        { target: t, contender: "store" as const },
        { target: t, contender: "raw" as const }
      ]),
      { target: "none" as const, contender: "fetch" as const }
    ]
    const samples: Array<Sample> = []
    for (let round = 0; round < options.rounds; round++) {
      for (let j = 0; j < jobs.length; j++) {
        const job = jobs[(j + round) % jobs.length]!
        const serviceCpu = service.cpuMillis()
        const sample = yield* Effect.gen(function*() {
          if (job.contender === "fetch") {
            const f = yield* SyncContenders.fetchAll(service.baseUrl, p, options, false)
            return { rows: f.counts.transfers + f.counts.deposits, exact: exactCounts(f.counts), ...f }
          }
          const db = yield* SyncDatabase.fresh(job.target, dir, pgUrl, `${job.contender}-${round}`)
          if (job.contender === "sync") {
            const s = yield* SyncContenders.syncInto(db, service.baseUrl, p, options)
            return { ...s, exact: exactCounts(s.counts) && s.rows === total }
          }
          if (job.contender === "store") {
            const s = yield* SyncContenders.storeInto(db, warm.batches, p.since)
            return { ...s, rows: total, requests: 0, exact: exactCounts(s.counts) }
          }
          yield* SyncDatabase.migrate(db)
          const r = yield* SyncRawLoop.rawInto(job.target, db, warm.batches)
          return { ...r, rows: total, requests: 0, exact: exactCounts(r.counts) }
        })
        const done: Sample = {
          round,
          target: job.target,
          contender: job.contender,
          rows: sample.rows,
          requests: sample.requests,
          wallMillis: sample.wallMillis,
          cpuMillis: sample.cpuMillis,
          serviceCpuMillis: service.cpuMillis() - serviceCpu,
          rowsPerSecond: sample.rows / (sample.wallMillis / 1000),
          exact: sample.exact
        }
        samples.push(done)
        log(
          `sync round ${round + 1}: ${job.contender} (${job.target}) ${done.rows} rows in ${
            done.wallMillis.toFixed(0)
          } ms = ${Measure.fixed(done.rowsPerSecond, 0)} rows/s, CPU ${done.cpuMillis.toFixed(0)} ms (service ${
            done.serviceCpuMillis.toFixed(0)
          } ms)${done.exact ? "" : ", NOT EXACT"}`
        )
      }
    }
    const budget = options.defaultBudget ? yield* SyncAtBudget.atDefaultBudget(dir, log) : undefined
    return {
      options,
      expected,
      samples,
      summaries: SyncTable.summarise(samples),
      postgresSkipped: "skipped" in pg ? pg.skipped : undefined,
      atDefaultBudget: budget
    }
  }).pipe(Effect.scoped)

/**
 * The part's rows of the bench table: the fetch alone, then per database the sync, the store alone and
 * the raw loop (PostgreSQL's three rows say why it was skipped), then the run at the default budget when there is one.
 *
 * @example
 * import { SyncThroughput } from "@broker-history/bench"
 * declare const result: SyncThroughput.Result
 * const rows = SyncThroughput.rows(result)
 */
export const rows = (result: Result): Array<[string, string, string]> => SyncTable.rows(result)
