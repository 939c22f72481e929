/**
 * The whole broker's first full sync: the reference service seeded with many sub-accounts created one
 * after another over a year, the futures type spelled `FUTURE`, transfer windows limited to 30 days;
 * `broker-history sync --account-types SPOT,FUTURE --since <a year ago>` in its own process, once
 * discovering the sub-accounts (each stream starts at its sub-account's creation) and once with the
 * same names listed by hand (every stream starts at `--since`), each into a new SQLite file. Each
 * run's requests, as the service counted them, against the ideal of its plan (`IdealRequests`): the
 * sum over its streams of the windows and pages their records need, plus the list's pages.
 *
 * @since 0.2.0
 */
import { TransferPlan } from "@broker-history/client"
import { ReferenceServer } from "@broker-history/server"
import type { Store } from "@broker-history/server"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as CliProcess from "./CliProcess.js"
import * as CompiledCli from "./CompiledCli.js"
import * as IdealRequests from "./IdealRequests.js"
import * as Measure from "./Measure.js"
import * as TempDir from "./TempDir.js"

/**
 * The history and the budget.
 *
 * @example
 * import type * as WholeBroker from "@broker-history/bench/WholeBroker"
 * const options: WholeBroker.Options = { seed: 22, subAccounts: 200, transfers: 20_000, deposits: 2_000, rate: 2_000 }
 */
export interface Options {
  readonly seed: number
  readonly subAccounts: number
  readonly transfers: number
  readonly deposits: number
  /** Requests a second, the service's limit per key and the client's budget alike. */
  readonly rate: number
}

/**
 * One first full sync.
 *
 * @example
 * import type * as WholeBroker from "@broker-history/bench/WholeBroker"
 * const overIdeal = (run: WholeBroker.Run) => run.requests / run.ideal
 */
export interface Run {
  readonly label: string
  readonly startsAtCreation: boolean
  /** Requests the service answered for this run (the sub-account list, the time and both histories). */
  readonly requests: number
  /** Of them, refused with 400 (windows wider than the service accepts, until the width is learned). */
  readonly refused: number
  /** The fewest requests that read every stream of the plan exactly, the list's pages included. */
  readonly ideal: number
  /** Transfers in the synced database, and whether they are the service's that touch the master, each once. */
  readonly stored: number
  readonly exact: boolean
  readonly seconds: number
}

/**
 * Both runs, and the plan they read.
 *
 * @example
 * import type * as WholeBroker from "@broker-history/bench/WholeBroker"
 * const saved = (r: WholeBroker.Result) => r.runs[1]!.requests - r.runs[0]!.requests
 */
export interface Result {
  readonly subAccounts: number
  readonly streams: number
  /** The transfers that touch the master: what the plan covers (sub→sub ones need explicit pairs). */
  readonly transfers: number
  readonly runs: ReadonlyArray<Run>
  readonly cli: string
}

const day = 86_400_000
const transferMaxSpan = 30 * day
const depositMaxSpan = 10 * day

// A stream's records, by the filters a transfer query names (`null`: the master account).
const streamKey = (fromType: string, toType: string, from: string | null, to: string | null) =>
  JSON.stringify([fromType, toType, from, to])

/** The ideal of a plan: its transfer streams from `startOf(stream)`, the deposit stream and the list's pages. */
const idealOf = (
  planned: ReadonlyArray<TransferPlan.PlannedStream>,
  transfers: ReadonlyArray<Store.TransferRow>,
  deposits: ReadonlyArray<Store.DepositRow>,
  listed: number | undefined,
  since: number,
  until: number,
  startOf: (stream: TransferPlan.PlannedStream) => number
): number => {
  const times = new Map<string, Array<number>>()
  for (const t of transfers) {
    const k = streamKey(t.fromAccountType, t.toAccountType, t.fromAccount, t.toAccount)
    const list = times.get(k)
    if (list === undefined) times.set(k, [t.timestamp])
    else list.push(t.timestamp)
  }
  for (const list of times.values()) list.sort((a, b) => a - b)
  let ideal = listed === undefined ? 0 : Math.floor(listed / 200) + 1
  for (const stream of planned) {
    const q = stream.query
    ideal += IdealRequests.minimal({
      times: times.get(streamKey(q.fromAccountType, q.toAccountType, q.fromAccount ?? null, q.toAccount ?? null)) ?? [],
      since: startOf(stream),
      until,
      maxSpan: transferMaxSpan,
      limit: 500
    })
  }
  ideal += IdealRequests.minimal({
    times: deposits.map((d) => d.insertTime).sort((a, b) => a - b),
    since,
    until,
    maxSpan: depositMaxSpan,
    limit: 1000
  })
  return ideal
}

/**
 * Starts the service in this process, then runs both syncs with the CLI in a process of its own
 * (`CompiledCli`), into new SQLite files in a scratch directory.
 *
 * @example
 * import * as WholeBroker from "@broker-history/bench/WholeBroker"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(WholeBroker.run({ seed: 1, subAccounts: 3, transfers: 100, deposits: 10, rate: 500 }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, Error> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-bench-whole-")
    const server = yield* ReferenceServer.ReferenceServer
    const listed = yield* server.store.allSubAccounts()
    const transfers = yield* server.store.allTransfers()
    // What the plan reads: every transfer that touches the master (sub→sub ones need explicit pairs).
    const covered = transfers.filter((t) => t.fromAccount === null || t.toAccount === null).length
    const deposits = yield* server.store.allDeposits()
    const accountTypes = ["SPOT", "FUTURE"]
    const subAccounts = listed.map((s) => ({ subAccount: s.name, note: s.note, timestamp: s.createdAt }))
    const planned = TransferPlan.ofSubAccounts(subAccounts, accountTypes)
    const cli = yield* CompiledCli.command
    // Before the seed's first record: both runs read the whole history.
    const since = Math.min(...transfers.map((t) => t.timestamp), ...deposits.map((d) => d.insertTime)) - day
    const namesFile = Path.join(dir, "sub-accounts.txt")
    Fs.writeFileSync(namesFile, listed.map((s) => s.name).join("\n") + "\n")
    const runs: Array<Run> = []
    for (const startsAtCreation of [true, false]) {
      const db = Path.join(dir, `whole-broker-${startsAtCreation ? "discovered" : "listed"}.db`)
      Fs.rmSync(db, { force: true })
      const before = yield* server.stats
      const until = Date.now()
      const sync = yield* CliProcess.run(cli.args, server.baseUrl, [
        "sync",
        "--db",
        db,
        "--account-types",
        accountTypes.join(","),
        "--since",
        new Date(since).toISOString(),
        "--rate-limit",
        String(options.rate),
        "--rate-limit-interval",
        "1s",
        ...(startsAtCreation ? [] : ["--sub-accounts-file", namesFile])
      ])
      const after = yield* server.stats
      if (sync.code !== 0) {
        return yield* Effect.fail(new Error(`broker-history sync exited ${sync.code}: ${sync.stderr.trim()}`))
      }
      const held = /the tables hold (\d+) transfers/.exec(sync.stdout)
      const stored = held === null ? Number.NaN : Number(held[1])
      const ideal = idealOf(
        planned,
        transfers,
        deposits,
        startsAtCreation ? listed.length : undefined,
        since,
        until,
        (stream) => startsAtCreation ? Math.max(since, stream.startsAt ?? since) : since
      )
      const result: Run = {
        label: startsAtCreation ? "discovered, streams from creation" : "listed by hand, streams from --since",
        startsAtCreation,
        requests: after.requests - before.requests,
        refused: (after.byStatus[400] ?? 0) - (before.byStatus[400] ?? 0),
        ideal,
        stored,
        exact: stored === covered,
        seconds: sync.wallMillis / 1000
      }
      log(
        `whole broker (${listed.length} sub-accounts, ${planned.length} transfer streams), ${result.label}: ${result.requests} requests (${result.refused} refused as too wide), ideal ${ideal}: ${
          Measure.fixed(result.requests / ideal, 3)
        }x; ${stored} of the ${covered} transfers that touch the master stored; ${Measure.fixed(result.seconds, 1)} s`
      )
      runs.push(result)
    }
    return {
      subAccounts: listed.length,
      streams: planned.length,
      transfers: covered,
      runs,
      cli: cli.runs
    } satisfies Result
  }).pipe(
    Effect.provide(ReferenceServer.layer({
      seed: {
        seed: options.seed,
        transfers: options.transfers,
        deposits: options.deposits,
        subAccounts: options.subAccounts,
        years: 1,
        staggeredSubAccounts: true
      },
      futuresAccountType: "FUTURE",
      maxWindow: { transfers: `${transferMaxSpan} millis` },
      rateLimit: { limit: options.rate * 10, window: "1 second" }
    })),
    Effect.scoped
  )

/**
 * The rows of the benchmark's table: each run's requests against its ideal.
 *
 * @example
 * import * as WholeBroker from "@broker-history/bench/WholeBroker"
 * declare const result: WholeBroker.Result
 * WholeBroker.rows(result).length // 2
 */
export const rows = (result: Result): Array<[string, string, string]> =>
  result.runs.map((r) => [
    `whole broker's first sync (${result.subAccounts} sub-accounts, ${result.streams} transfer streams): ${r.label}`,
    `${r.requests} requests (${r.refused} refused as too wide), ideal ${r.ideal}; ${r.stored} of ${result.transfers} master transfers${
      r.exact ? "" : " (NOT exact)"
    }; ${Measure.fixed(r.seconds, 1)} s`,
    `${Measure.fixed(r.requests / r.ideal, 3)}x the ideal`
  ])
