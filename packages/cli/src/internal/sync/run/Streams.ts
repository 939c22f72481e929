/**
 * One stream of a sync caught up: the batches it writes (each with the stream's position, in one
 * transaction), the backfill of what its stored history lacks, the settlement re-read, then onward
 * from its checkpoint until the read ends. The state it shares with the other streams of the run
 * (totals, positions, damaged streams, backfills) is updated as batches commit.
 *
 * @internal
 */
import type { BrokerError, Checkpoint } from "@broker-history/client"
import type { SqlError } from "@effect/sql/SqlError"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as Progress from "../../shared/Progress.js"
import type * as Store from "../store/Store.js"
import * as Positions from "./Positions.js"

/** A read of a stream's changes: from `since` (or after `resume`) up to `until`, or to now. */
export interface ChangeRange {
  readonly since: number
  readonly until?: number | undefined
  readonly resume: Checkpoint.Checkpoint | undefined
}

/** One stream of the plan: how it is read and written. */
export interface StreamSpec<A> {
  readonly id: string
  readonly kind: "transfers" | "deposits"
  /**
   * When the stream's history begins, if known (Unix ms): a sub-account's creation. Nothing before it
   * is read, whatever `--since` says.
   */
  readonly startsAt?: number | undefined
  readonly plain: (range: { since: number; until: number }) => Stream.Stream<A, BrokerError.BrokerError>
  readonly changes: (range: ChangeRange) => Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>
  readonly apply: (records: ReadonlyArray<A>, position: Store.Position | undefined) => Effect.Effect<void, SqlError>
  readonly time: (record: A) => number
}

/** What a sync wrote: records by kind and the transactions that wrote them. */
export interface Totals {
  transfers: number
  deposits: number
  batches: number
}

/** What the streams of one run share, updated as their batches commit. */
export interface State extends Positions.Positions {
  readonly totals: Totals
  /** Streams backfilled in this run, counted by the start they were backfilled from (Unix ms). */
  readonly backfilled: Map<number, number>
}

/** Writes a batch with its stream's position (or none); once committed, it is counted. */
export type Write = <A>(
  spec: StreamSpec<A>
) => (records: ReadonlyArray<A>, position: Store.Position | undefined) => Effect.Effect<void, SqlError>

/**
 * How a run rides out outages. Following, a database operation is tried again while the database is
 * unavailable, and one stream's catch-up is run again from its committed position after a transient
 * service failure; otherwise (`asItIs`) every failure ends the run.
 */
export interface Resilience {
  /** A database operation: as it is, or tried again while the database is unavailable. */
  readonly database: <A>(operation: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
  /** A batch read from the service was stored: a service outage seen while catching up is over. */
  readonly answered: Effect.Effect<void>
  /** One stream's catch-up, run again from where its committed batches left it after a transient failure. */
  readonly catchUp: (
    attempt: Effect.Effect<void, BrokerError.BrokerError | SqlError>
  ) => Effect.Effect<void, BrokerError.BrokerError | SqlError>
}

/** No retries beyond the client's own: a failure ends the run (a sync that does not follow). */
export const asItIs: Resilience = {
  database: (operation) => operation,
  answered: Effect.void,
  catchUp: (attempt) => attempt
}

/**
 * Writes a batch with the stream's position (or none) in one transaction (through `resilience`:
 * written again while the database is unavailable), then counts it in the totals and the progress,
 * and keeps the stream's new checkpoint or backfill progress, where a retried catch-up resumes.
 */
export const writer = (
  state: State,
  progress: Context.Tag.Service<Progress.Progress>,
  resilience: Resilience = asItIs
): Write =>
(spec) =>
(
  records,
  position
) =>
  Effect.zipRight(
    resilience.database(spec.apply(records, position)),
    Effect.suspend(() => {
      state.totals[spec.kind] += records.length
      state.totals.batches++
      if (position?._tag === "Checkpoint") {
        state.positions.set(spec.id, { checkpoint: position.checkpoint, coveredSince: position.coveredSince })
      } else if (position?._tag === "Backfill") {
        state.pending.set(spec.id, { since: position.since, checkpoint: position.checkpoint })
      }
      return Effect.zipRight(
        resilience.answered,
        progress.add(
          records.length,
          records.length === 0 ? undefined : spec.time(records[records.length - 1])
        )
      )
    })
  )

/**
 * A finite read cut into full batches, the last one at its end smaller: a batch waits at most for
 * the read's next page. Counting costs far less than `groupedWithin`'s timer and its fibers.
 */
export const full = (batchSize: number) => <A, E>(stream: Stream.Stream<A, E>) =>
  Stream.chunks(Stream.rechunk(stream, batchSize)).pipe(Stream.filter(Chunk.isNonEmpty))

/** A finite read of changes in full batches, each with the checkpoint of its last record. */
export const batches =
  (batchSize: number) => <A>(stream: Stream.Stream<Checkpoint.Change<A>, BrokerError.BrokerError>) =>
    Stream.map(full(batchSize)(stream), (chunk) => {
      const elements = Chunk.toReadonlyArray(chunk)
      return { records: elements.map((c) => c.record), checkpoint: elements[elements.length - 1].checkpoint }
    })

/** What catching up needs of the run's settings. */
export interface CatchUp {
  readonly since: { readonly transfers: number; readonly deposits: number }
  readonly settlement: number
  readonly batchSize: number
}

/**
 * Reads one stream into the store: the backfill, the settlement re-read, then onward from the
 * checkpoint. A damaged stream is skipped; one whose checkpoint the service finds in its future is
 * marked damaged.
 */
export const catchUp = (
  settings: CatchUp,
  state: State,
  store: Store.Service,
  write: Write,
  resilience: Resilience = asItIs
) => {
  /**
   * Reads [since, coveredSince) into the store. Each batch stores its progress with its rows; the
   * stream's history is said to start at `since` only after the last batch is committed, so a kill
   * at any moment never claims a range whose rows are not stored, and a restart continues from the
   * stored progress.
   */
  const backfill = <A>(spec: StreamSpec<A>, since: number, coveredSince: number) =>
    Effect.gen(function*() {
      // Progress from an earlier run counts if it covers everything from `since` up to it.
      const resume = Positions.resumeFrom(state.pending.get(spec.id), since, coveredSince)
      const writeBatch = write(spec)
      yield* spec.changes({ since, until: coveredSince - 1, resume }).pipe(
        batches(settings.batchSize),
        Stream.runForEach(({ checkpoint, records }) => writeBatch(records, { _tag: "Backfill", since, checkpoint }))
      )
      yield* resilience.database(store.completeBackfill(spec.id, since))
      state.pending.delete(spec.id)
      state.backfilled.set(since, (state.backfilled.get(since) ?? 0) + 1)
    })

  // Each attempt starts from the state its committed batches left: a retried catch-up resumes there.
  return <A>(spec: StreamSpec<A>) =>
    resilience.catchUp(Effect.gen(function*() {
      if (state.damaged.has(spec.id)) return
      const since = Positions.startOf(settings.since, spec)
      const writeBatch = write(spec)
      const found = state.positions.get(spec.id)
      const position = found !== undefined && since < found.coveredSince
        ? yield* Effect.as(backfill(spec, since, found.coveredSince), { ...found, coveredSince: since })
        : found
      if (position !== undefined) state.positions.set(spec.id, position)
      if (position !== undefined && settings.settlement > 0) {
        const checkpoint = position.checkpoint
        const settled = yield* spec.plain({
          since: Math.max(position.coveredSince, checkpoint.time - settings.settlement),
          until: checkpoint.time
        }).pipe(
          full(settings.batchSize),
          Stream.runForEach((chunk) => writeBatch(Chunk.toReadonlyArray(chunk), undefined)),
          Effect.as(true),
          // The client refuses an `until` after the service's now: here, the checkpoint's time.
          Effect.catchIf(
            (e): e is BrokerError.InvalidQuery => e._tag === "InvalidQuery" && e.parameter === "until",
            () =>
              Effect.sync(() => {
                state.damaged.set(spec.id, Positions.futureProblem(checkpoint.time))
                return false
              })
          )
        )
        if (!settled) return
      }
      const coveredSince = position?.coveredSince ?? since
      // A stream read for the first time is read up to a time of its own, so that when it holds no
      // record its coverage is still stored: an empty checkpoint one settlement window before that
      // time, so that a later run, and the follower, re-read that window (a record may be listed late)
      // and then read on, instead of reading the stream's whole range again.
      const until = position === undefined ? Date.now() : undefined
      const onward = (upTo: number | undefined) =>
        spec.changes({
          // With a checkpoint, `since` must not be after it (the stream starts at the later of the two).
          since: position?.checkpoint.time ?? since,
          ...(upTo === undefined ? {} : { until: Math.max(since, upTo) }),
          resume: position?.checkpoint
        }).pipe(
          batches(settings.batchSize),
          Stream.runForEach(({ checkpoint, records }) =>
            writeBatch(records, { _tag: "Checkpoint", checkpoint, coveredSince })
          )
        )
      const ended = yield* onward(until).pipe(
        Effect.as(until),
        // This machine's clock is ahead of the service's: read up to the service's now, as before.
        Effect.catchIf(
          (e): e is BrokerError.InvalidQuery =>
            until !== undefined && e._tag === "InvalidQuery" && e.parameter === "until",
          () => Effect.as(onward(undefined), undefined)
        ),
        // From a checkpoint, the client refuses only a start after the service's now: the checkpoint's time.
        Effect.catchIf(
          (e): e is BrokerError.InvalidQuery =>
            position !== undefined && e._tag === "InvalidQuery" && e.parameter === "since",
          () =>
            Effect.sync(() => {
              state.damaged.set(spec.id, Positions.futureProblem(position!.checkpoint.time))
              return undefined
            })
        )
      )
      if (ended !== undefined && !state.positions.has(spec.id)) {
        yield* writeBatch([], {
          _tag: "Checkpoint",
          checkpoint: { time: Math.max(since, ended - settings.settlement), ids: [] },
          coveredSince
        })
      }
    }))
}
