/**
 * `broker-history sync`: keeps both histories in a database. Each stream (one transfer query per
 * account pair and account-type pair, and the deposits) is read from its stored checkpoint, in
 * batches that are upserted together with the stream's new checkpoint in one transaction. A
 * restart first re-reads the settlement window before each checkpoint (records that may still have
 * changed), then continues after it: killed at any moment, a restart leaves no gap, no duplicate
 * row and no lost update. Each stream also stores where its history starts; a `--since` before that
 * backfills the difference once, with the same guarantees. A stream whose checkpoint is damaged is
 * skipped and named (`--reset-stream` repairs it). With `--follow` it keeps running and applies new
 * records and updates until SIGINT/SIGTERM, which let the batch being written commit.
 *
 * @since 0.1.0
 */
import type { BrokerError, Checkpoint } from "@broker-history/client"
import { BrokerConfig, BrokerHistory, StreamOptions } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
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
import * as Choices from "./Choices.js"
import * as ClientOptions from "./ClientOptions.js"
import * as ExitCode from "./ExitCode.js"
import { range, verbose } from "./Export.js"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncStore from "./SyncStore.js"
import * as TimeText from "./TimeText.js"

/**
 * What a sync does: its transfer streams, where each kind's history starts, the checkpoints to reset,
 * following, the settlement window, concurrency and batching, and where its lines go.
 *
 * @example
 * ```ts
 * import { Progress, Sync, SyncPlan, SyncStore } from "@broker-history/cli"
 * import type { BrokerError, BrokerHistory } from "@broker-history/client"
 * import type { SqlError } from "@effect/sql"
 * import type { Effect, Scope } from "effect"
 *
 * const settings: Sync.Settings = {
 *   transferStreams: SyncPlan.transferStreams(SyncPlan.defaultPairs(["sub001@broker.test"]), ["SPOT", "FUTURES"]),
 *   since: { transfers: 0, deposits: Date.now() - 365 * 86_400_000 },
 *   reset: undefined,
 *   follow: undefined,
 *   settlement: 86_400_000,
 *   concurrency: 4,
 *   batchSize: 500,
 *   batchWait: 250,
 *   log: (line) => console.log(line),
 *   warn: (line) => console.error(line)
 * }
 * const sync: Effect.Effect<
 *   Sync.Outcome,
 *   BrokerError.BrokerError | SqlError.SqlError,
 *   BrokerHistory.BrokerHistory | SyncStore.SyncStore | Progress.Progress | Scope.Scope
 * > = Sync.run(settings)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly transferStreams: ReadonlyArray<SyncPlan.TransferStream>
  /**
   * Where each kind's history starts (Unix ms): a stream's first run reads from here, and a stream
   * whose stored history starts later is backfilled from here.
   */
  readonly since: { readonly transfers: number; readonly deposits: number }
  /** Streams whose checkpoints are deleted before the sync (`all`: every stream), or none. */
  readonly reset: ReadonlyArray<string> | "all" | undefined
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
  /** Where a warning goes while following (stderr): damaged checkpoints found at the start. */
  readonly warn: (line: string) => void
}

/**
 * What a sync wrote: records by kind and the transactions that wrote them.
 *
 * @example
 * ```ts
 * import type { Sync } from "@broker-history/cli"
 *
 * const totals: Sync.Totals = { transfers: 0, deposits: 0, batches: 0 }
 * // Counted as batches are committed:
 * const committed = (kind: "transfers" | "deposits", records: number) => {
 *   totals[kind] += records
 *   totals.batches++
 * }
 * committed("transfers", 500)
 * committed("deposits", 12)
 * assert.deepStrictEqual(totals, { transfers: 500, deposits: 12, batches: 2 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Totals {
  transfers: number
  deposits: number
  batches: number
}

/**
 * A stream skipped because its stored checkpoint cannot be used, with the reason in one sentence.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 *
 * const damaged: Sync.Damaged = { stream: '["deposits"]', problem: "the checkpoint {garbage is not JSON" }
 * assert.ok(Sync.damagedSentence([damaged], 5).includes(`--reset-stream '["deposits"]'`))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Damaged {
  readonly stream: string
  readonly problem: string
}

/**
 * How a sync that ran to the end went: what it wrote, what the tables hold, what it backfilled, where
 * each kind's stored history starts, and the streams it skipped.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 *
 * const outcome: Sync.Outcome = {
 *   totals: { transfers: 1200, deposits: 40, batches: 6 },
 *   counts: { transfers: 1200, deposits: 40 },
 *   backfilled: new Map(),
 *   coveredFrom: { transfers: 0, deposits: 0 }, // every stream holds its whole history
 *   damaged: []
 * }
 * assert.deepStrictEqual(Sync.coverageLines(outcome, { defaultDeposits: undefined, depositWindow: "10d", uncovered: undefined }), [])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly totals: Totals
  readonly counts: SyncStore.Counts
  /** Streams backfilled in this run, counted by the start they were backfilled from (Unix ms). */
  readonly backfilled: ReadonlyMap<number, number>
  /**
   * Per kind, the latest start of a stream's stored history (Unix ms): before it, at least one
   * stream of that kind has nothing. 0: every stream holds its whole history.
   */
  readonly coveredFrom: { readonly transfers: number; readonly deposits: number }
  /** Streams of the plan that were skipped, each with its reason. */
  readonly damaged: ReadonlyArray<Damaged>
}

/** A checkpoint more than this ahead of the local clock is damaged without asking the service. */
const futureMargin = 86_400_000

const instantText = (ms: number): string => new Date(ms).toISOString()

/** The problem of a checkpoint whose time is after the service's now. */
const futureProblem = (time: number): string =>
  `its time ${time} (${instantText(time)}) is after the service's now, so it cannot have been written by a sync`

interface ChangeRange {
  readonly since: number
  readonly until?: number | undefined
  readonly resume: Checkpoint.Checkpoint | undefined
  readonly follow: { interval: Duration.Duration; settlement: Duration.Duration } | undefined
}

/** One stream of the plan: how it is read and written. */
interface StreamSpec<A> {
  readonly id: string
  readonly kind: "transfers" | "deposits"
  readonly plain: (range: { since: number; until: number }) => Stream.Stream<A, BrokerError.BrokerError>
  readonly changes: (range: ChangeRange) => Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>
  readonly apply: (records: ReadonlyArray<A>, position: SyncStore.Position | undefined) => Effect.Effect<void, SqlError>
  readonly time: (record: A) => number
}

/** Where a stream stands: its checkpoint, and where its stored history starts. */
interface Position {
  readonly checkpoint: Checkpoint.Checkpoint
  readonly coveredSince: number
}

/**
 * Runs a sync against the `SyncStore` with the `BrokerHistory` client: each stream backfills what its
 * stored history lacks, re-reads its settlement window and continues after its checkpoint, each batch
 * upserted together with the stream's checkpoint in one transaction; it ends when every stream is up to
 * date, or with `follow` never.
 *
 * @example
 * ```ts
 * import { Progress, Sync, SyncPlan, SyncStore } from "@broker-history/cli"
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const settings: Sync.Settings = {
 *   transferStreams: SyncPlan.transferStreams(SyncPlan.defaultPairs(["sub001@broker.test"]), ["SPOT"]),
 *   since: { transfers: 0, deposits: Date.now() - 30 * 86_400_000 },
 *   reset: undefined,
 *   follow: undefined,
 *   settlement: 86_400_000,
 *   concurrency: 4,
 *   batchSize: 500,
 *   batchWait: 100,
 *   log: () => {},
 *   warn: () => {}
 * }
 * const [first, second] = await Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const HistoryLive = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
 *     baseUrl: server.baseUrl,
 *     apiKey: Redacted.make(ApiKeys.demo.apiKey),
 *     secretKey: Redacted.make(ApiKeys.demo.secretKey)
 *   })))
 *   const sync = Sync.run(settings).pipe(Effect.scoped, Effect.provide(HistoryLive))
 *   return [yield* sync, yield* sync] as const
 * }).pipe(
 *   Effect.provide(Layer.merge(SyncStore.layer(":memory:"), Progress.layer({ label: "sync", endpoints: [], live: false }))),
 *   Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 2000, deposits: 200, subAccounts: 3 } })),
 *   Effect.runPromise
 * )
 * // Three transfer streams (master→master, master→sub001, sub001→master) and the deposits:
 * assert.ok(first.counts.transfers > 0 && first.counts.deposits > 0 && first.damaged.length === 0)
 * // The second run re-reads only the settlement window, and its upserts duplicate nothing:
 * assert.deepStrictEqual(second.counts, first.counts)
 * assert.ok(second.totals.transfers < first.totals.transfers)
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (settings: Settings) =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const store = yield* SyncStore.SyncStore
    const progress = yield* Progress.Progress
    const totals: Totals = { transfers: 0, deposits: 0, batches: 0 }

    if (settings.reset !== undefined) {
      const deleted = yield* store.reset(settings.reset)
      settings.log(resetLine(settings.reset, deleted))
    }

    const specs: ReadonlyArray<StreamSpec<any>> = [
      {
        id: SyncPlan.depositStreamId,
        kind: "deposits",
        plain: (r) => history.deposits({ ...r, concurrency: 2 }),
        changes: (o) => history.depositChanges({ ...o, concurrency: 2 }),
        apply: (records, position) => store.applyDeposits(SyncPlan.depositStreamId, records, position),
        time: (d: DepositRecord.DepositRecord) => d.insertTime
      } satisfies StreamSpec<DepositRecord.DepositRecord>,
      ...settings.transferStreams.map((s): StreamSpec<TransferRecord.TransferRecord> => ({
        id: s.id,
        kind: "transfers",
        plain: (r) => history.transfers({ ...s.query, ...r }),
        changes: (o) => history.transferChanges({ ...s.query, ...o }),
        apply: (records, position) => store.applyTransfers(s.id, records, position),
        time: (t) => t.timestamp
      }))
    ]

    // What is stored for the plan's streams. A checkpoint that cannot be used marks its stream as
    // damaged (skipped); a row of the first schema (no covered range) counts as covered from its
    // checkpoint only, since what its first run covered is not known.
    const stored = yield* store.streams
    const positions = new Map<string, Position>()
    const pending = new Map<string, { readonly since: number; readonly checkpoint: Checkpoint.Checkpoint }>()
    const damaged = new Map<string, string>()
    for (const spec of specs) {
      const row = stored.get(spec.id)
      if (row === undefined) continue
      if (Either.isLeft(row.checkpoint)) {
        damaged.set(spec.id, row.checkpoint.left.message)
        continue
      }
      const checkpoint = row.checkpoint.right
      // Far in the future: refused before any request (a backfill up to it could be endless).
      if (checkpoint.time > Date.now() + futureMargin) {
        damaged.set(spec.id, futureProblem(checkpoint.time))
        continue
      }
      positions.set(spec.id, {
        checkpoint,
        coveredSince: Math.min(row.coveredSince ?? checkpoint.time, checkpoint.time)
      })
      if (row.backfill !== undefined) pending.set(spec.id, row.backfill)
    }
    const backfilled = new Map<number, number>()

    /** Writes a batch with the stream's position (or none) in one transaction, then counts it. */
    const writer = <A>(spec: StreamSpec<A>) => (records: ReadonlyArray<A>, position: SyncStore.Position | undefined) =>
      Effect.zipRight(
        spec.apply(records, position),
        Effect.suspend(() => {
          totals[spec.kind] += records.length
          totals.batches++
          if (position?._tag === "Checkpoint") {
            positions.set(spec.id, { checkpoint: position.checkpoint, coveredSince: position.coveredSince })
          }
          return progress.add(
            records.length,
            records.length === 0 ? undefined : spec.time(records[records.length - 1])
          )
        })
      )

    const batches = <A>(stream: Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>) =>
      Stream.groupedWithin(stream, settings.batchSize, settings.batchWait).pipe(
        Stream.map((chunk) => {
          const elements = Chunk.toReadonlyArray(chunk)
          return { records: elements.map((c) => c.record), checkpoint: elements[elements.length - 1].checkpoint }
        })
      )

    /**
     * Reads [since, coveredSince) into the store. Each batch stores its progress with its rows; the
     * stream's history is said to start at `since` only after the last batch is committed, so a kill
     * at any moment never claims a range whose rows are not stored, and a restart continues from the
     * stored progress.
     */
    const backfill = <A>(spec: StreamSpec<A>, since: number, coveredSince: number) =>
      Effect.gen(function*() {
        const earlier = pending.get(spec.id)
        // Progress from an earlier run counts if it covers everything from `since` up to it.
        const resume = earlier !== undefined && earlier.since <= since && earlier.checkpoint.time >= since &&
            earlier.checkpoint.time < coveredSince
          ? earlier.checkpoint
          : undefined
        const write = writer(spec)
        yield* spec.changes({ since, until: coveredSince - 1, resume, follow: undefined }).pipe(
          batches,
          Stream.runForEach(({ checkpoint, records }) => write(records, { _tag: "Backfill", since, checkpoint }))
        )
        yield* store.completeBackfill(spec.id, since)
        pending.delete(spec.id)
        backfilled.set(since, (backfilled.get(since) ?? 0) + 1)
      })

    /** Reads one stream into the store: the backfill, the settlement re-read, then onward from the checkpoint. */
    const syncStream = <A>(spec: StreamSpec<A>, follow: boolean) =>
      Effect.gen(function*() {
        if (damaged.has(spec.id)) return
        const since = settings.since[spec.kind]
        const write = writer(spec)
        const found = positions.get(spec.id)
        const position = !follow && found !== undefined && since < found.coveredSince
          ? yield* Effect.as(backfill(spec, since, found.coveredSince), { ...found, coveredSince: since })
          : found
        if (position !== undefined) positions.set(spec.id, position)
        // Following, the client re-reads the settlement window on every poll itself.
        if (!follow && position !== undefined && settings.settlement > 0) {
          const checkpoint = position.checkpoint
          yield* spec.plain({
            since: Math.max(position.coveredSince, checkpoint.time - settings.settlement),
            until: checkpoint.time
          }).pipe(
            Stream.groupedWithin(settings.batchSize, settings.batchWait),
            Stream.runForEach((chunk) => write(Chunk.toReadonlyArray(chunk), undefined))
          )
        }
        const coveredSince = position?.coveredSince ?? since
        yield* spec.changes({
          // With a checkpoint, `since` must not be after it (the stream starts at the later of the two).
          since: position?.checkpoint.time ?? since,
          resume: position?.checkpoint,
          follow: follow && settings.follow !== undefined
            ? { interval: Duration.millis(settings.follow), settlement: Duration.millis(settings.settlement) }
            : undefined
        }).pipe(
          batches,
          Stream.runForEach(({ checkpoint, records }) =>
            write(records, { _tag: "Checkpoint", checkpoint, coveredSince })
          ),
          // From a checkpoint, the client refuses only a start after the service's now: the checkpoint's time.
          Effect.catchIf(
            (e): e is BrokerError.InvalidQuery =>
              position !== undefined && e._tag === "InvalidQuery" && e.parameter === "since",
            () => Effect.sync(() => damaged.set(spec.id, futureProblem(position!.checkpoint.time)))
          )
        )
      })

    const damagedList = (): ReadonlyArray<Damaged> =>
      specs.filter((s) => damaged.has(s.id)).map((s) => ({ stream: s.id, problem: damaged.get(s.id)! }))

    // Catch up with bounded concurrency; then, when following, every stream polls (the shared rate
    // limiter bounds the requests) from the checkpoint just stored.
    yield* Effect.all(specs.map((s) => syncStream(s, false)), { concurrency: settings.concurrency, discard: true })
    const caughtUp = yield* store.counts
    const coveredFrom = { transfers: 0, deposits: 0 }
    for (const spec of specs) {
      if (damaged.has(spec.id)) continue
      const start = positions.get(spec.id)?.coveredSince ?? settings.since[spec.kind]
      coveredFrom[spec.kind] = Math.max(coveredFrom[spec.kind], start)
    }
    const outcome = (): Outcome => ({ totals, counts: caughtUp, backfilled, coveredFrom, damaged: damagedList() })
    if (settings.follow === undefined) return outcome()

    if (damaged.size > 0) settings.warn(damagedSentence(damagedList(), specs.length))
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
    yield* Effect.all(specs.map((s) => syncStream(s, true)), { concurrency: "unbounded", discard: true }).pipe(
      Effect.ensuring(report)
    )
    return outcome()
  })

/** A stream id quoted for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/**
 * The sentence for skipped streams: which, why, and the `--reset-stream` flags that repair them.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   Sync.damagedSentence([{ stream: '["deposits"]', problem: "the checkpoint null is null, not an object { time, ids }" }], 21),
 *   `the checkpoint of 1 stream is damaged: ["deposits"]: the checkpoint null is null, not an object { time, ids }. ` +
 *     `It was skipped and the other 20 streams were synced. Run the same sync with --reset-stream '["deposits"]' ` +
 *     "to reset it: its rows stay and it is read again from --since, upserted (nothing duplicates)"
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const damagedSentence = (damaged: ReadonlyArray<Damaged>, streams: number): string => {
  const one = damaged.length === 1
  const list = damaged.map((d) => `${d.stream}: ${d.problem}`).join("; ")
  const flags = damaged.map((d) => `--reset-stream ${shellQuote(d.stream)}`).join(" ")
  const others = streams - damaged.length
  return `${
    one ? "the checkpoint of 1 stream is damaged" : `the checkpoints of ${damaged.length} streams are damaged`
  }: ${list}. ${one ? "It was" : "They were"} skipped${
    others > 0 ? ` and the other ${others} ${others === 1 ? "stream was" : "streams were"} synced` : ""
  }. Run the same sync with ${flags} to reset ${one ? "it" : "them"}: ${
    one ? "its rows stay and it is" : "their rows stay and each is"
  } read again from --since, upserted (nothing duplicates)`
}

const resetLine = (reset: ReadonlyArray<string> | "all", deleted: ReadonlyArray<string>): string => {
  const plural = deleted.length === 1 ? "checkpoint of 1 stream" : `checkpoints of ${deleted.length} streams`
  if (reset === "all") return `reset the ${plural} (all); they are read again from --since`
  const missing = reset.filter((id) => !deleted.includes(id))
  return `reset the ${plural}${deleted.length === 0 ? "" : `: ${deleted.join(", ")}`}${
    missing.length === 0 ? "" : `; no checkpoint was stored for ${missing.join(", ")}`
  }`
}

/** A time for a summary: the date when it is midnight UTC, else the date and minute. */
const dateText = (ms: number): string => {
  const iso = new Date(ms).toISOString()
  return ms % 86_400_000 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/**
 * The sync summary's lines after the first: what was backfilled, what history was not fetched (and how
 * to fetch it), and what the plan leaves out.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 *
 * const yearAgo = Date.UTC(2024, 0, 1)
 * const lines = Sync.coverageLines({
 *   totals: { transfers: 0, deposits: 0, batches: 0 },
 *   counts: { transfers: 0, deposits: 0 },
 *   backfilled: new Map([[yearAgo, 3]]),
 *   coveredFrom: { transfers: 0, deposits: yearAgo },
 *   damaged: []
 * }, { defaultDeposits: yearAgo, depositWindow: "10d", uncovered: undefined })
 * assert.deepStrictEqual(lines, [
 *   "backfilled 3 streams from 2024-01-01",
 *   "not fetched: deposits before 2024-01-01 (without --since a first run reads one year of deposits: one request " +
 *   "covers at most 10d of them); pass an earlier --since (a date, 5y, or 0 for everything) to backfill it"
 * ])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const coverageLines = (
  outcome: Outcome,
  options: {
    /** Where deposits start on a first run without `--since` (Unix ms); `undefined` when it was given. */
    readonly defaultDeposits: number | undefined
    /** The widest deposit window one request covers, as text. */
    readonly depositWindow: string
    /** What the plan does not read (`SyncPlan.uncovered`). */
    readonly uncovered: string | undefined
  }
): ReadonlyArray<string> => {
  const lines: Array<string> = []
  if (outcome.backfilled.size > 0) {
    lines.push(
      `backfilled ${
        [...outcome.backfilled].sort(([a], [b]) => a - b).map(([since, n]) =>
          `${n} ${n === 1 ? "stream" : "streams"} from ${dateText(since)}`
        ).join(" and ")
      }`
    )
  }
  const { deposits, transfers } = outcome.coveredFrom
  const missing = deposits > 0 && deposits === transfers
    ? [`history before ${dateText(deposits)}`]
    : [
      ...(transfers > 0 ? [`transfers before ${dateText(transfers)}`] : []),
      ...(deposits > 0 ? [`deposits before ${dateText(deposits)}`] : [])
    ]
  if (missing.length > 0) {
    // The first-run default is what limits the deposits: say why it is one year.
    const why = options.defaultDeposits === deposits && transfers === 0
      ? ` (without --since a first run reads one year of deposits: one request covers at most ${options.depositWindow} of them)`
      : ""
    lines.push(
      `not fetched: ${
        missing.join(", ")
      }${why}; pass an earlier --since (a date, 5y, or 0 for everything) to backfill it`
    )
  }
  if (options.uncovered !== undefined) lines.push(options.uncovered)
  return lines
}

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
        const result = yield* run({
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
          const line of coverageLines(result, {
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
        process.stderr.write(`broker-history: ${damagedSentence(outcome.damaged, outcome.streams)}\n`)
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
