/**
 * What `broker-history sync` does once its flags are read: every stream of the plan read from its
 * stored checkpoint into the `SyncStore`, in batches upserted together with the stream's new
 * checkpoint in one transaction, so that a restart after any crash leaves no gap, no duplicate row
 * and no lost update. Each stream also stores where its history starts; a `--since` before that
 * backfills the difference once, with the same guarantees. A stream whose checkpoint is damaged is
 * skipped and named. With `follow` it keeps running until interrupted; the batch being written
 * commits first.
 *
 * @since 0.1.0
 */
import type { BrokerError, Checkpoint } from "@broker-history/client"
import { BrokerHistory } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import type { SqlError } from "@effect/sql/SqlError"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncStore from "./SyncStore.js"
import * as SyncSummary from "./SyncSummary.js"

/**
 * What a sync does: its transfer streams, where each kind's history starts, the checkpoints to reset,
 * following, the settlement window, concurrency and batching, and where its lines go.
 *
 * @example
 * ```ts
 * import { Progress, SyncPlan, SyncRun, SyncStore } from "@broker-history/cli"
 * import type { BrokerError, BrokerHistory } from "@broker-history/client"
 * import type { SqlError } from "@effect/sql"
 * import type { Effect, Scope } from "effect"
 *
 * const settings: SyncRun.Settings = {
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
 *   SyncRun.Outcome,
 *   BrokerError.BrokerError | SqlError.SqlError,
 *   BrokerHistory.BrokerHistory | SyncStore.SyncStore | Progress.Progress | Scope.Scope
 * > = SyncRun.run(settings)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Whose rows and checkpoints these are (`SyncStore.forProfile`); default `SyncStore.defaultProfile`. */
  readonly profile?: string | undefined
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
  /**
   * Records per transaction at most. Catching up, each stream is written in full batches (the last one
   * at its end smaller).
   */
  readonly batchSize: number
  /** Following: the longest wait (ms) to fill a batch before it is written. */
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
 * import type { SyncRun } from "@broker-history/cli"
 *
 * const totals: SyncRun.Totals = { transfers: 0, deposits: 0, batches: 0 }
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
 * import { SyncRun, SyncSummary } from "@broker-history/cli"
 *
 * const damaged: SyncRun.Damaged = { stream: '["deposits"]', problem: "the checkpoint {garbage is not JSON" }
 * assert.ok(SyncSummary.damagedSentence([damaged], 5).includes(`--reset-stream '["deposits"]'`))
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
 * import { SyncRun, SyncSummary } from "@broker-history/cli"
 *
 * const outcome: SyncRun.Outcome = {
 *   totals: { transfers: 1200, deposits: 40, batches: 6 },
 *   counts: { transfers: 1200, deposits: 40 },
 *   backfilled: new Map(),
 *   coveredFrom: { transfers: 0, deposits: 0 }, // every stream holds its whole history
 *   damaged: []
 * }
 * assert.deepStrictEqual(SyncSummary.coverageLines(outcome, { defaultDeposits: undefined, depositWindow: "10d", uncovered: undefined }), [])
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

/** While following, a stream whose last poll brought records is polled again after this long (ms). */
const pollAfterRecords = 1000

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
 * import { Progress, SyncPlan, SyncRun, SyncStore } from "@broker-history/cli"
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const settings: SyncRun.Settings = {
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
 *   const sync = SyncRun.run(settings).pipe(Effect.scoped, Effect.provide(HistoryLive))
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
    const store = (yield* SyncStore.SyncStore).forProfile(settings.profile ?? SyncStore.defaultProfile)
    const progress = yield* Progress.Progress
    const totals: Totals = { transfers: 0, deposits: 0, batches: 0 }

    if (settings.reset !== undefined) {
      const deleted = yield* store.reset(settings.reset)
      settings.log(SyncSummary.resetLine(settings.reset, deleted))
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

    /**
     * A finite read cut into full batches, the last one at its end smaller: a batch waits at most for
     * the read's next page. Counting costs far less than `groupedWithin`'s timer and its fibers.
     */
    const full = <A, E>(stream: Stream.Stream<A, E>) =>
      Stream.chunks(Stream.rechunk(stream, settings.batchSize)).pipe(Stream.filter(Chunk.isNonEmpty))

    const batches = <A>(stream: Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>) =>
      Stream.map(full(stream), (chunk) => {
        const elements = Chunk.toReadonlyArray(chunk)
        return { records: elements.map((c) => c.record), checkpoint: elements[elements.length - 1].checkpoint }
      })

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
        yield* spec.changes({ since, until: coveredSince - 1, resume }).pipe(
          batches,
          Stream.runForEach(({ checkpoint, records }) => write(records, { _tag: "Backfill", since, checkpoint }))
        )
        yield* store.completeBackfill(spec.id, since)
        pending.delete(spec.id)
        backfilled.set(since, (backfilled.get(since) ?? 0) + 1)
      })

    /** Reads one stream into the store: the backfill, the settlement re-read, then onward from the checkpoint. */
    const syncStream = <A>(spec: StreamSpec<A>) =>
      Effect.gen(function*() {
        if (damaged.has(spec.id)) return
        const since = settings.since[spec.kind]
        const write = writer(spec)
        const found = positions.get(spec.id)
        const position = found !== undefined && since < found.coveredSince
          ? yield* Effect.as(backfill(spec, since, found.coveredSince), { ...found, coveredSince: since })
          : found
        if (position !== undefined) positions.set(spec.id, position)
        if (position !== undefined && settings.settlement > 0) {
          const checkpoint = position.checkpoint
          yield* spec.plain({
            since: Math.max(position.coveredSince, checkpoint.time - settings.settlement),
            until: checkpoint.time
          }).pipe(
            full,
            Stream.runForEach((chunk) => write(Chunk.toReadonlyArray(chunk), undefined))
          )
        }
        const coveredSince = position?.coveredSince ?? since
        yield* spec.changes({
          // With a checkpoint, `since` must not be after it (the stream starts at the later of the two).
          since: position?.checkpoint.time ?? since,
          resume: position?.checkpoint
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

    // Catch up with bounded concurrency (the client's rate limiter bounds the requests).
    yield* Effect.all(specs.map(syncStream), { concurrency: settings.concurrency, discard: true })
    const caughtUp = yield* store.counts
    const coveredFrom = { transfers: 0, deposits: 0 }
    for (const spec of specs) {
      if (damaged.has(spec.id)) continue
      const start = positions.get(spec.id)?.coveredSince ?? settings.since[spec.kind]
      coveredFrom[spec.kind] = Math.max(coveredFrom[spec.kind], start)
    }
    const outcome = (): Outcome => ({ totals, counts: caughtUp, backfilled, coveredFrom, damaged: damagedList() })
    if (settings.follow === undefined) return outcome()

    if (damaged.size > 0) settings.warn(SyncSummary.damagedSentence(damagedList(), specs.length))
    settings.log(
      `${
        new Date().toISOString()
      } caught up: ${caughtUp.transfers} transfers, ${caughtUp.deposits} deposits; following, each stream at least every ${
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
    // Following: every stream from its stored checkpoint through the client's follow scheduler (the
    // transfer streams through one, the deposit stream through another), which polls busy streams
    // after a second and quiet ones less often, none less often than every --interval. Each batch of
    // the merged changes is written per stream, with that stream's checkpoint.
    const live = specs.filter((s) => !damaged.has(s.id))
    const byId = new Map(live.map((s) => [s.id, s]))
    const from = (spec: StreamSpec<any>) => {
      const position = positions.get(spec.id)
      return { since: position?.checkpoint.time ?? settings.since[spec.kind], resume: position?.checkpoint }
    }
    const schedule = {
      minInterval: Duration.millis(Math.min(pollAfterRecords, settings.follow)),
      maxInterval: Duration.millis(settings.follow),
      settlement: Duration.millis(settings.settlement),
      concurrency: settings.concurrency
    }
    const transferQueries = settings.transferStreams.filter((s) => byId.has(s.id)).map((s) => ({
      stream: s.id,
      query: { ...s.query, ...from(byId.get(s.id)!) }
    }))
    const deposits = byId.get(SyncPlan.depositStreamId)
    const changes = Stream.merge(
      transferQueries.length === 0 ? Stream.empty : history.followTransfers(transferQueries, schedule),
      deposits === undefined
        ? Stream.empty
        : history.followDeposits([{ stream: deposits.id, query: { concurrency: 2, ...from(deposits) } }], schedule)
    )
    yield* changes.pipe(
      Stream.groupedWithin(settings.batchSize, settings.batchWait),
      Stream.runForEach((chunk) =>
        Effect.forEach(
          SyncPlan.byStream(Chunk.toReadonlyArray(chunk)),
          ([id, group]) => {
            const spec = byId.get(id)!
            return writer(spec)(group.map((c) => c.record), {
              _tag: "Checkpoint",
              checkpoint: group[group.length - 1].checkpoint,
              coveredSince: positions.get(id)?.coveredSince ?? settings.since[spec.kind]
            })
          },
          { discard: true }
        )
      ),
      Effect.ensuring(report)
    )
    return outcome()
  })
