/**
 * `broker-history sync`: its flags, read and checked before the database is opened or a request
 * sent, then the run (`SyncRun`) and its summary (`SyncSummary`). Keeps both histories in a
 * database, exact across crashes; `--follow` keeps it running until SIGINT/SIGTERM.
 *
 * @since 0.1.0
 */
import { BrokerConfig, StreamOptions } from "@broker-history/client"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import * as Choices from "./Choices.js"
import * as ClientOptions from "./ClientOptions.js"
import * as ExitCode from "./ExitCode.js"
import { range, verbose } from "./Export.js"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncRun from "./SyncRun.js"
import * as SyncStore from "./SyncStore.js"
import * as SyncSummary from "./SyncSummary.js"
import * as TimeText from "./TimeText.js"

const usage = (message: string) => new ExitCode.UsageError({ message })

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional, Options.map(Option.getOrUndefined))

const readFile = (flag: string, path: string) =>
  Effect.try({
    try: () => Fs.readFileSync(path, "utf8"),
    catch: (e) => usage(`--${flag}: cannot read ${path} (${(e as Error).message})`)
  })

const durationFlag = (flag: string, text: string) =>
  Either.match(TimeText.duration(text), {
    onLeft: (m) => Effect.fail(usage(`--${flag}: ${m}`)),
    onRight: (d) => Effect.succeed(Duration.toMillis(d))
  })

const fromEither = <A>(either: Either.Either<A, string>) =>
  Either.match(either, { onLeft: (m) => Effect.fail(usage(m)), onRight: Effect.succeed })

/**
 * Reads the `--reset-stream` values: `all`, or stream ids as stored in `sync_checkpoints.stream` (JSON
 * arrays, read back in the stored spelling), or the message saying what is wrong.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Sync.resetStreams(['[ "deposits" ]']), Either.right(['["deposits"]']))
 * assert.deepStrictEqual(Sync.resetStreams(["ALL"]), Either.right("all"))
 * assert.deepStrictEqual(Sync.resetStreams([]), Either.right(undefined))
 * assert.ok(Either.isLeft(Sync.resetStreams(["deposits"])))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const resetStreams = (
  values: ReadonlyArray<string>
): Either.Either<ReadonlyArray<string> | "all" | undefined, string> => {
  if (values.length === 0) return Either.right(undefined)
  if (values.some((v) => v.trim().toLowerCase() === "all")) return Either.right("all")
  const ids: Array<string> = []
  for (const value of values) {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      parsed = undefined
    }
    if (!Array.isArray(parsed) || (parsed[0] !== "transfers" && parsed[0] !== "deposits")) {
      return Either.left(
        `--reset-stream: ${
          JSON.stringify(value)
        } is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '["deposits"]') or all`
      )
    }
    ids.push(JSON.stringify(parsed))
  }
  return Either.right([...new Set(ids)])
}

/**
 * `broker-history sync`: keeps both histories in a SQLite or PostgreSQL database, idempotently, once
 * or with `--follow` until SIGINT/SIGTERM.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Sync.command, CliConfig.defaultConfig))
 * for (const flag of ["--db", "--sub-accounts", "--pairs", "--since", "--reset-stream", "--follow", "--settlement"]) {
 *   assert.ok(help.includes(flag), flag)
 * }
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("sync", {
  db: Options.text("db").pipe(
    Options.withDescription(
      "the database: a SQLite file path (created if missing) or postgres://user:password@host:port/database (required)"
    )
  ),
  subAccounts: optionalText(
    "sub-accounts",
    "sub-accounts to sync, comma-separated (a@x,b@x); master→sub and sub→master are read for each (default: none, only the master's own transfers)"
  ),
  subAccountsFile: optionalText("sub-accounts-file", "a file with one sub-account a line, # comments (default: none)"),
  pairs: optionalText(
    "pairs",
    "a file of explicit account pairs instead, one a line: FROM TO [FROM_TYPE TO_TYPE]; - or master is the master account (default: the pairs of --sub-accounts)"
  ),
  accountTypes: Options.text("account-types").pipe(
    Options.withDefault("SPOT,FUTURES"),
    Options.withDescription(
      "account types (SPOT, FUTURES, any letter case); every ordered pair of them is read (default SPOT,FUTURES)"
    )
  ),
  since: optionalText(
    "since",
    "where the history starts: 2024-01-01, an ISO date-time, Unix ms (0: everything) or 400d (default: the whole transfer history and one year of deposits); a stream's first run reads from here, and an earlier --since than a stream already holds backfills the difference once"
  ),
  resetStream: Options.text("reset-stream").pipe(
    Options.repeated,
    Options.withDescription(
      "delete a stream's checkpoint before syncing (a stream id as stored in sync_checkpoints.stream, or all; repeatable): its rows stay, and it is read again from --since (use once, to repair a damaged checkpoint) (default: none)"
    )
  ),
  follow: Options.boolean("follow").pipe(
    Options.withDescription("keep running: poll every --interval and apply new records and updates (default off)")
  ),
  interval: Options.text("interval").pipe(
    Options.withDefault("30s"),
    Options.withDescription("poll interval with --follow: 30s, 5m, 1h, … (default 30s)")
  ),
  settlement: Options.text("settlement").pipe(
    Options.withDefault("1d"),
    Options.withDescription(
      "how long after its time a record may still change (deposit status, confirmations): re-read on every restart and poll (default 1d)"
    )
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.withDefault(4),
    Options.withDescription("streams read at once while catching up; all share one rate limit (default 4)")
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDefault(500),
    Options.withDescription("records per transaction at most (default 500)")
  ),
  verbose,
  client: ClientOptions.options
}, (flags) =>
  Effect.gen(function*() {
    const outcome = yield* Effect.gen(function*() {
      // SQLite takes an empty name for a throwaway temporary database: never what a sync is for.
      if (flags.db.trim() === "") {
        return yield* Effect.fail(
          usage(
            "--db is empty: give a SQLite file path (created if missing) or a PostgreSQL URL postgres://user:password@host:port/database"
          )
        )
      }
      if (flags.subAccounts !== undefined && flags.subAccountsFile !== undefined) {
        return yield* Effect.fail(usage("give --sub-accounts or --sub-accounts-file, not both"))
      }
      if (flags.pairs !== undefined && (flags.subAccounts !== undefined || flags.subAccountsFile !== undefined)) {
        return yield* Effect.fail(usage("--pairs lists the pairs itself: drop --sub-accounts/--sub-accounts-file"))
      }
      if (flags.concurrency < 1 || flags.concurrency > 64) {
        return yield* Effect.fail(usage("--concurrency must be from 1 to 64"))
      }
      if (flags.batchSize < 1 || flags.batchSize > 10_000) {
        return yield* Effect.fail(usage("--batch-size must be from 1 to 10000"))
      }
      const accountTypes = [
        ...new Set(
          yield* Effect.forEach(
            SyncPlan.names(flags.accountTypes),
            (t) => fromEither(Choices.accountType("--account-types", t))
          )
        )
      ]
      if (accountTypes.length === 0) return yield* Effect.fail(usage("--account-types lists no account type"))
      const subs = flags.subAccounts !== undefined
        ? SyncPlan.names(flags.subAccounts)
        : flags.subAccountsFile !== undefined
        ? SyncPlan.names(yield* readFile("sub-accounts-file", flags.subAccountsFile))
        : []
      const pairs = flags.pairs === undefined
        ? SyncPlan.defaultPairs(subs)
        : yield* Either.match(SyncPlan.parsePairs(yield* readFile("pairs", flags.pairs)), {
          onLeft: (m) => Effect.fail(usage(`--pairs ${flags.pairs}: ${m}`)),
          onRight: Effect.succeed
        })
      const interval = yield* durationFlag("interval", flags.interval)
      if (interval <= 0) return yield* Effect.fail(usage("--interval must be longer than 0"))
      const settlement = yield* durationFlag("settlement", flags.settlement)
      const reset = yield* fromEither(resetStreams(flags.resetStream))
      const { since: given } = yield* range(flags.since, undefined)
      // The client's settings are read (and checked) before the database is opened.
      const maxWindow = yield* Effect.map(BrokerConfig.BrokerConfig, (c) => c.maxWindow).pipe(
        Effect.provide(ClientOptions.configLayer(flags.client, process.env))
      )
      // First-run default: the whole history where an empty stretch costs one request (transfers, whose
      // windows are unlimited), one year where every window of it is a request (deposits: ten days each,
      // so a whole history would be thousands of requests).
      const yearBack = Math.max(0, Date.now() - Duration.toMillis(StreamOptions.defaultLookback))
      const since = given !== undefined
        ? { transfers: given, deposits: given }
        : { transfers: maxWindow.transfers === undefined ? 0 : yearBack, deposits: yearBack }
      const transferStreams = SyncPlan.transferStreams(pairs, accountTypes)
      const started = Date.now()
      const log = (line: string) => process.stdout.write(line + "\n")

      // Flags are checked above, before the database is opened or created.
      return yield* Effect.gen(function*() {
        const result = yield* SyncRun.run({
          transferStreams,
          since,
          reset,
          follow: flags.follow ? interval : undefined,
          settlement,
          concurrency: flags.concurrency,
          batchSize: flags.batchSize,
          batchWait: 250,
          log,
          warn: (line) => process.stderr.write(`broker-history: ${line}\n`)
        }).pipe(Effect.scoped)
        const counts = yield* Effect.flatMap(SyncStore.SyncStore, (s) => s.counts)
        const progress = yield* Effect.flatMap(Progress.Progress, (p) => p.snapshot)
        log(
          `synced ${transferStreams.length + 1 - result.damaged.length} streams into ${
            SyncStore.describe(flags.db)
          }: applied ${result.totals.transfers} transfer and ${result.totals.deposits} deposit records in ${result.totals.batches} transactions; the tables hold ${counts.transfers} transfers and ${counts.deposits} deposits (${progress.requests} requests, ${progress.retries} retries, ${
            ((Date.now() - started) / 1000).toFixed(1)
          } s)`
        )
        for (
          const line of SyncSummary.coverageLines(result, {
            defaultDeposits: given === undefined ? since.deposits : undefined,
            depositWindow: Duration.format(maxWindow.deposits),
            uncovered: flags.pairs === undefined ? SyncPlan.uncovered(subs, accountTypes) : undefined
          })
        ) log(line)
        return { damaged: result.damaged, streams: transferStreams.length + 1 }
      }).pipe(
        Effect.provide(Layer.mergeAll(
          ClientOptions.layer(flags.client, process.env),
          SyncStore.layer(flags.db),
          Progress.layer({ label: "sync", endpoints: ["transferHistory", "depositHistory"] })
        ))
      )
    }).pipe(ExitCode.report(flags.verbose))
    // Damaged checkpoints: the other streams are synced and summarised; the command then fails.
    if (outcome !== undefined && outcome.damaged.length > 0) {
      yield* Effect.sync(() =>
        process.stderr.write(`broker-history: ${SyncSummary.damagedSentence(outcome.damaged, outcome.streams)}\n`)
      )
      return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes.other }))
    }
  })).pipe(Command.withDescription(
    "Keep both histories in a database (tables transfers, deposits, sync_checkpoints), idempotently: " +
      "each stream's checkpoint is stored in the transaction of its rows, so a killed sync restarts where it stopped. " +
      "Without --pairs it reads, for every sub-account and every ordered pair of --account-types, master→sub and sub→master, " +
      "plus the master's own transfers, and all deposits. A first run reads the whole transfer history and one year of deposits " +
      "(or from --since); an earlier --since later backfills what is missing. A damaged checkpoint skips its stream (exit 1 at the end; " +
      "--reset-stream repairs it). With --follow it runs until SIGINT/SIGTERM (exit 0 after the current batch commits). " +
      ClientOptions.variablesHelp
  ))
