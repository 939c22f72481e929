/**
 * `broker-history sync` of the demo's data in its own process, as a user runs it (the compiled CLI,
 * the demo key, the client's default request budget), against the seeded service: its wall time
 * compared with the time the budget allows for its requests, and where the time outside the requests
 * goes (before the first answer, after the last). The command's summary line is parsed here, the
 * service's request log by `ServiceLog`.
 *
 * @since 0.2.0
 */
import { BrokerConfig } from "@broker-history/client"
import { ApiKeys, Seed } from "@broker-history/server"
import type * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Path from "node:path"
import * as CliProcess from "./CliProcess.js"
import * as CompiledCli from "./CompiledCli.js"
import * as ServiceLog from "./ServiceLog.js"
import * as ServiceProcess from "./ServiceProcess.js"
import type { BudgetRun } from "./SyncModel.js"

/**
 * The figures of `broker-history sync`'s summary line.
 *
 * @example
 * import type * as SyncAtBudget from "@broker-history/bench/SyncAtBudget"
 * const rows = (s: SyncAtBudget.Summary) => s.transfers + s.deposits
 */
export interface Summary {
  readonly transfers: number
  readonly deposits: number
  readonly requests: number
  readonly retries: number
  /** The command's own elapsed time, as it prints it (tenths of a second). */
  readonly seconds: number
}

/**
 * The figures of the summary line in a sync's stdout, or `undefined` when there is none.
 *
 * @example
 * import * as SyncAtBudget from "@broker-history/bench/SyncAtBudget"
 * SyncAtBudget.parseSummary(
 *   "synced 5 streams into history.db: applied 120 transfer and 4 deposit records in 6 transactions; " +
 *     "the tables hold 120 transfers and 4 deposits (30 requests, 0 retries, 1.3 s)"
 * ) // { transfers: 120, deposits: 4, requests: 30, retries: 0, seconds: 1.3 }
 */
export const parseSummary = (stdout: string): Summary | undefined => {
  const m = /applied (\d+) transfer and (\d+) deposit records .*\((\d+) requests, (\d+) retr(?:y|ies), ([\d.]+) s\)/
    .exec(stdout)
  return m === null ? undefined : {
    transfers: Number(m[1]),
    deposits: Number(m[2]),
    requests: Number(m[3]),
    retries: Number(m[4]),
    seconds: Number(m[5])
  }
}

/**
 * `broker-history sync` in its own process, as a user runs it: the demo key, the default budget (no
 * BROKER_RATE_LIMIT), `--sub-accounts` naming every sub-account, into a new SQLite file.
 */
const syncCommand = (cli: ReadonlyArray<string>, baseUrl: string, db: string, subAccounts: number) =>
  CliProcess.run(cli, baseUrl, ["sync", "--db", db, "--sub-accounts", Seed.subAccountNames(subAccounts).join(",")])

/**
 * Starts the service with the demo's data (its defaults) and request log, and syncs it all with the
 * CLI in its own process (`CompiledCli`) into a new SQLite file in `dir`, at the client's default
 * budget; fails when the command fails or prints no summary.
 *
 * @example
 * import * as SyncAtBudget from "@broker-history/bench/SyncAtBudget"
 * import { Effect } from "effect"
 * const overBound = Effect.map(SyncAtBudget.atDefaultBudget("/tmp/bench", console.error), (r) => r.overBound)
 */
export const atDefaultBudget = (
  dir: string,
  log: (line: string) => void
): Effect.Effect<BudgetRun, Error | ConfigError.ConfigError> =>
  Effect.gen(function*() {
    // The demo's data: the service's defaults (seed 42, 100,000 transfers, 20,000 deposits, 40 sub-accounts).
    // The service logs a line per answered request: when the command's requests start and end.
    const answered: Array<number> = []
    const service = yield* ServiceProcess.spawn(["--log"], (line) => {
      const at = ServiceLog.brokerRequest(line)?.answeredAt
      if (at !== undefined) answered.push(at)
    })
    const budget = (yield* BrokerConfig.BrokerConfig.pipe(
      Effect.provide(BrokerConfig.layer({
        baseUrl: service.baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(ApiKeys.demo.secretKey)
      }))
    )).rateLimit
    const perSecond = budget.limit / (Duration.toMillis(budget.interval) / 1000)
    const cli = yield* CompiledCli.command
    const run = yield* syncCommand(cli.args, service.baseUrl, Path.join(dir, "demo.db"), 40)
    const summary = parseSummary(run.stdout)
    if (run.code !== 0 || summary === undefined) {
      return yield* Effect.fail(
        new Error(`broker-history sync exited ${run.code}: ${run.stderr.trim() || run.stdout.trim()}`)
      )
    }
    const requests = summary.requests
    const boundMillis = (requests / perSecond) * 1000
    const result: BudgetRun = {
      budget: perSecond,
      requests,
      retries: summary.retries,
      rows: summary.transfers + summary.deposits,
      wallMillis: run.wallMillis,
      commandMillis: summary.seconds * 1000,
      boundMillis,
      overBound: run.wallMillis / boundMillis,
      commandOverBound: (summary.seconds * 1000) / boundMillis,
      exitCode: run.code,
      runs: cli.runs,
      firstRequestMillis: answered.length === 0 ? Number.NaN : answered[0]! - run.startedAt,
      requestsMillis: answered.length === 0 ? Number.NaN : answered[answered.length - 1]! - answered[0]!,
      exitMillis: answered.length === 0 ? Number.NaN : run.endedAt - answered[answered.length - 1]!
    }
    log(
      `sync at the default budget (${perSecond}/s, demo's data): ${requests} requests, ${result.retries} retries, ${result.rows} rows in ${
        (run.wallMillis / 1000).toFixed(1)
      } s from start to exit (command's own ${summary.seconds.toFixed(1)} s); bound ${
        (boundMillis / 1000).toFixed(1)
      } s: ${result.overBound.toFixed(3)}x (${
        result.commandOverBound.toFixed(3)
      }x); ${cli.runs}; first request answered ${
        (result.firstRequestMillis / 1000).toFixed(2)
      } s after the start, the last ${(result.requestsMillis / 1000).toFixed(2)} s after the first, exit ${
        (result.exitMillis / 1000).toFixed(2)
      } s after the last`
    )
    return result
  }).pipe(Effect.scoped)
