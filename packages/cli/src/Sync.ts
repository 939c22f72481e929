/**
 * `broker-history sync`: keeps both histories in a database. Each stream (one transfer query per
 * account pair and account-type pair, and the deposits) is read from its stored checkpoint, in
 * batches that are upserted together with the stream's new checkpoint in one transaction. A
 * restart first re-reads the settlement window before each checkpoint (records that may still have
 * changed), then continues after it: killed at any moment, a restart leaves no gap, no duplicate
 * row and no lost update. With `--follow` it keeps running and applies new records and updates
 * until SIGINT/SIGTERM, which let the batch being written commit.
 *
 * @since 0.1.0
 */
import type { BrokerError, Checkpoint } from "@broker-history/client"
import { BrokerHistory } from "@broker-history/client"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type { SqlError } from "@effect/sql/SqlError"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as ClientOptions from "./ClientOptions.js"
import * as ExitCode from "./ExitCode.js"
import { range, verbose } from "./Export.js"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncStore from "./SyncStore.js"
import * as TimeText from "./TimeText.js"

/**
 * What a sync does.
 *
 * @example
 * import type { Sync } from "@broker-history/cli"
 * const options: Sync.Settings = {
 *   transferStreams: [], since: undefined, follow: undefined, settlement: 86_400_000,
 *   concurrency: 4, batchSize: 500, batchWait: 1000, log: () => {}
 * }
 */
export interface Settings {
  readonly transferStreams: ReadonlyArray<SyncPlan.TransferStream>
  /** Start of the history on a first run (Unix ms; default: the client's, one year back). */
  readonly since: number | undefined
  /** Poll interval (ms) with `--follow`. */
  readonly follow: number | undefined
  /** How far back records may still change (ms): re-read before each checkpoint on restart. */
  readonly settlement: number
  /** Streams read at once. */
  readonly concurrency: number
  /** Records per transaction at most. */
  readonly batchSize: number
  /** Longest wait (ms) to fill a batch before it is written. */
  readonly batchWait: number
  /** Where status lines go (stdout). */
  readonly log: (line: string) => void
}

/**
 * What a sync wrote.
 *
 * @example
 * import type { Sync } from "@broker-history/cli"
 * const nothing: Sync.Totals = { transfers: 0, deposits: 0, batches: 0 }
 */
export interface Totals {
  transfers: number
  deposits: number
  batches: number
}

/**
 * Runs a sync against the `SyncStore` with the `BrokerHistory` client (one layer: one shared rate
 * limiter). Ends when every stream is up to date, or with `follow` never (interrupt it).
 *
 * @example
 * import { Sync } from "@broker-history/cli"
 * declare const settings: Sync.Settings
 * const program = Sync.run(settings)
 */
export const run = (settings: Settings) =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const store = yield* SyncStore.SyncStore
    const progress = yield* Progress.Progress
    const stored = new Map(yield* store.checkpoints)
    const totals: Totals = { transfers: 0, deposits: 0, batches: 0 }

    /** Reads one stream into the store: the settlement re-read, then onward from the checkpoint. */
    const syncStream = <A>(
      id: string,
      kind: "transfers" | "deposits",
      plain: (range: { since: number; until: number }) => Stream.Stream<A, BrokerError.BrokerError>,
      changes: (
        options: {
          since: number | undefined
          resume: Checkpoint.Checkpoint | undefined
          follow: { interval: Duration.Duration; settlement: Duration.Duration } | undefined
        }
      ) => Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>,
      apply: (
        records: ReadonlyArray<A>,
        checkpoint: Checkpoint.Checkpoint | undefined
      ) => Effect.Effect<void, SqlError>,
      time: (record: A) => number,
      follow: boolean
    ) =>
      Effect.gen(function*() {
        const checkpoint = stored.get(id)
        const write = (records: ReadonlyArray<A>, cp: Checkpoint.Checkpoint | undefined) =>
          Effect.zipRight(
            apply(records, cp),
            Effect.suspend(() => {
              totals[kind] += records.length
              totals.batches++
              if (cp !== undefined) stored.set(id, cp)
              return progress.add(records.length, records.length === 0 ? undefined : time(records[records.length - 1]))
            })
          )
        // Following, the client re-reads the settlement window on every poll itself.
        if (!follow && checkpoint !== undefined && settings.settlement > 0) {
          const since = Math.max(settings.since ?? 0, checkpoint.time - settings.settlement)
          yield* plain({ since, until: checkpoint.time }).pipe(
            Stream.groupedWithin(settings.batchSize, settings.batchWait),
            Stream.runForEach((chunk) => write(Chunk.toReadonlyArray(chunk), undefined))
          )
        }
        // With a checkpoint, `since` must not be after it (the stream starts at the later of the two).
        const since = checkpoint === undefined ? settings.since : checkpoint.time
        yield* changes({
          since,
          resume: checkpoint,
          follow: follow && settings.follow !== undefined
            ? { interval: Duration.millis(settings.follow), settlement: Duration.millis(settings.settlement) }
            : undefined
        }).pipe(
          Stream.groupedWithin(settings.batchSize, settings.batchWait),
          Stream.runForEach((chunk) => {
            const elements = Chunk.toReadonlyArray(chunk)
            return write(elements.map((c) => c.record), elements[elements.length - 1].checkpoint)
          })
        )
      })

    const transferJob = (s: SyncPlan.TransferStream, follow: boolean) =>
      syncStream(
        s.id,
        "transfers",
        (r) => history.transfers({ ...s.query, ...r }),
        (o) => history.transferChanges({ ...s.query, ...o }),
        (records, cp) => store.applyTransfers(s.id, records, cp),
        (t) => t.timestamp,
        follow
      )
    const depositJob = (follow: boolean) =>
      syncStream(
        SyncPlan.depositStreamId,
        "deposits",
        (r) => history.deposits({ ...r, concurrency: 2 }),
        (o) => history.depositChanges({ ...o, concurrency: 2 }),
        (records, cp) => store.applyDeposits(SyncPlan.depositStreamId, records, cp),
        (d) => d.insertTime,
        follow
      )

    const jobs = (follow: boolean) => [
      depositJob(follow),
      ...settings.transferStreams.map((s) => transferJob(s, follow))
    ]

    // Catch up with bounded concurrency; then, when following, every stream polls (the shared rate
    // limiter bounds the requests) from the checkpoint just stored.
    yield* Effect.all(jobs(false), { concurrency: settings.concurrency, discard: true })
    const caughtUp = yield* store.counts
    if (settings.follow === undefined) return { totals, counts: caughtUp }

    settings.log(
      `${
        new Date().toISOString()
      } caught up: ${caughtUp.transfers} transfers, ${caughtUp.deposits} deposits; following every ${
        Duration.format(Duration.millis(settings.follow))
      }`
    )
    let reported = { ...totals }
    const report = Effect.suspend(() => {
      const t = totals.transfers - reported.transfers
      const d = totals.deposits - reported.deposits
      reported = { ...totals }
      return t + d === 0 ?
        Effect.void :
        Effect.sync(() =>
          settings.log(
            `${
              new Date().toISOString()
            } applied ${t} transfer and ${d} deposit records (new, changed, or re-read in the settlement window)`
          )
        )
    })
    yield* Effect.forkScoped(Effect.repeat(report, Schedule.spaced(Duration.millis(settings.follow))))
    yield* Effect.all(jobs(true), { concurrency: "unbounded", discard: true }).pipe(Effect.ensuring(report))
    return { totals, counts: caughtUp }
  })

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

/**
 * `broker-history sync`.
 *
 * @example
 * import { Sync } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const root = Command.make("broker-history").pipe(Command.withSubcommands([Sync.command]))
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
    Options.withDescription("account types; every ordered pair of them is read (default SPOT,FUTURES)")
  ),
  since: optionalText(
    "since",
    "start of the history on the first run: 2024-01-01, an ISO date-time, Unix ms or 400d (default: one year back); later runs continue from their checkpoints"
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
    const accountTypes = SyncPlan.names(flags.accountTypes)
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
    const { since } = yield* range(flags.since, undefined)
    const transferStreams = SyncPlan.transferStreams(pairs, accountTypes)
    const started = Date.now()
    const log = (line: string) => process.stdout.write(line + "\n")

    // Flags are checked above, before the database is opened or created.
    yield* Effect.gen(function*() {
      const result = yield* run({
        transferStreams,
        since,
        follow: flags.follow ? interval : undefined,
        settlement,
        concurrency: flags.concurrency,
        batchSize: flags.batchSize,
        batchWait: 250,
        log
      }).pipe(Effect.scoped)
      const counts = yield* Effect.flatMap(SyncStore.SyncStore, (s) => s.counts)
      const progress = yield* Effect.flatMap(Progress.Progress, (p) => p.snapshot)
      log(
        `synced ${transferStreams.length + 1} streams into ${
          SyncStore.describe(flags.db)
        }: applied ${result.totals.transfers} transfer and ${result.totals.deposits} deposit records in ${result.totals.batches} transactions; the tables hold ${counts.transfers} transfers and ${counts.deposits} deposits (${progress.requests} requests, ${progress.retries} retries, ${
          ((Date.now() - started) / 1000).toFixed(1)
        } s)`
      )
    }).pipe(
      Effect.provide(Layer.mergeAll(
        ClientOptions.layer(flags.client, process.env),
        SyncStore.layer(flags.db),
        Progress.layer({ label: "sync", endpoints: ["transferHistory", "depositHistory"] })
      ))
    )
  }).pipe(
    ExitCode.report(flags.verbose)
  )).pipe(Command.withDescription(
    "Keep both histories in a database (tables transfers, deposits, sync_checkpoints), idempotently: " +
      "each stream's checkpoint is stored in the transaction of its rows, so a killed sync restarts where it stopped. " +
      "Without --pairs it reads, for every sub-account and every ordered pair of --account-types, master→sub and sub→master, " +
      "plus the master's own transfers, and all deposits. With --follow it runs until SIGINT/SIGTERM (exit 0 after the current batch commits). " +
      ClientOptions.variablesHelp
  ))
