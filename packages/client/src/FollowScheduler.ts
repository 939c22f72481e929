/**
 * Many change streams followed at once on one key's request budget: one merged stream of changes,
 * each tagged with the stream it belongs to and that stream's checkpoint after it, in order within
 * each stream. Each stream is the follow-mode change stream of `FullHistory` (same walk, checkpoints
 * and settlement window); what this module adds is when each one polls. A stream whose last poll
 * brought records is due again after `minInterval`; a quiet one waits twice as long each time, up to
 * `maxInterval`. When more streams are due than the budget serves, the earliest due goes first, so
 * every stream is late by about the same time and busy streams keep their lead (when the budget
 * serves every poll wanted, none waits longer than `maxInterval`). At most `concurrency` polls are in
 * flight, so the order is the schedule's rather than the rate limiter's queue.
 *
 * `BrokerHistory.followTransfers` / `followDeposits` build the streams from queries; `changes` takes
 * `FullHistory.Options` directly.
 *
 * @since 0.2.0
 */
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { type BrokerError, InvalidQuery } from "./BrokerError.js"
import type * as Checkpoint from "./Checkpoint.js"
import * as FullHistory from "./FullHistory.js"
import * as FollowSettings from "./internal/follow/FollowSettings.js"
import * as PollSchedule from "./internal/follow/PollSchedule.js"

/**
 * When the streams poll: `minInterval` after a poll that brought records (default 1 second),
 * doubling after each quiet poll up to `maxInterval` (default 5 minutes), at most `concurrency` polls
 * in flight (default 8).
 *
 * @example
 * ```ts
 * import type { FollowScheduler } from "@broker-history/client"
 *
 * // 4,000 streams on 20 requests/s: quiet streams take 4,000 / 300 s ≈ 13 requests/s, the rest goes to busy ones.
 * const schedule: FollowScheduler.Options = { minInterval: "1 second", maxInterval: "5 minutes", concurrency: 8 }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** The wait after a poll that brought records. Default 1 second. */
  readonly minInterval?: Duration.DurationInput | undefined
  /** The longest wait between two polls of a stream (quiet streams back off to it). Default 5 minutes. */
  readonly maxInterval?: Duration.DurationInput | undefined
  /** Polls in flight at most (1..64). Default 8. */
  readonly concurrency?: number | undefined
}

/**
 * The options of `BrokerHistory.followTransfers` / `followDeposits`: the schedule, and the settlement
 * window every stream re-reads on each poll (default 1 day, as `follow.settlement`).
 *
 * @example
 * ```ts
 * import type { FollowScheduler } from "@broker-history/client"
 *
 * const options: FollowScheduler.FollowOptions = { maxInterval: "2 minutes", settlement: "6 hours" }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface FollowOptions extends Options {
  /** Trailing window re-read on every poll, so late and changed records are seen. Default 1 day. */
  readonly settlement?: Duration.DurationInput | undefined
}

/**
 * The defaults of `Options`.
 *
 * @example
 * ```ts
 * import { FollowScheduler } from "@broker-history/client"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toSeconds(FollowScheduler.defaults.maxInterval), 300)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaults: {
  readonly minInterval: Duration.Duration
  readonly maxInterval: Duration.Duration
  readonly concurrency: number
} = FollowSettings.defaults

/**
 * One stream to follow: the caller's id for it (any value; it comes back on every change) and its query.
 *
 * @example
 * ```ts
 * import type { FollowScheduler, StreamOptions } from "@broker-history/client"
 *
 * const stream: FollowScheduler.Query<string, StreamOptions.TransferStreamQuery> = {
 *   stream: "SPOT>FUTURES master>sub001",
 *   query: { fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" }
 * }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Query<K, Q> {
  readonly stream: K
  /** The stream's query; its `resume` is the checkpoint stored for this stream. */
  readonly query: Q
}

/**
 * One stream for `changes`: the caller's id and the walk's options, whose `follow` gives the settlement
 * window and the server's clock (its `interval` is not used: the schedule decides).
 *
 * @example
 * ```ts
 * import type { FollowScheduler } from "@broker-history/client"
 *
 * type Row = { readonly id: string; readonly t: number }
 * const idOf = (followed: FollowScheduler.Followed<number, Row>) => followed.stream
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Followed<K, A> {
  readonly stream: K
  readonly options: FullHistory.Options<A>
}

/**
 * One element of the merged stream: a change of stream `stream`, with that stream's checkpoint after
 * it (store it as that stream's checkpoint).
 *
 * @example
 * ```ts
 * import type { FollowScheduler } from "@broker-history/client"
 * import type { TransferRecord } from "@broker-history/domain"
 *
 * const line = (change: FollowScheduler.Change<string, TransferRecord.TransferRecord>) =>
 *   `${change.stream} ${change.kind} ${change.record.tranId}`
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Change<K, A> extends Checkpoint.Change<A> {
  readonly stream: K
}

/**
 * Follows every stream at once: one merged stream of their changes, in order within each stream, each
 * tagged with its stream and that stream's checkpoint. Each stream first walks its range (up to the
 * server's now when its turn comes), then polls when the schedule says. Every stream must have
 * `follow` (its settlement window and server clock). Never ends; a stream's failure ends it all (the
 * streams of `BrokerHistory.followTransfers` / `followDeposits` ride out transient failures: their
 * `fetch` and server clock try a failed request again until the service answers).
 *
 * @example
 * ```ts
 * import { FollowScheduler, FullHistory } from "@broker-history/client"
 * import { Chunk, Clock, Duration, Effect, Stream } from "effect"
 *
 * type Row = { readonly id: string; readonly t: number }
 * const rows: Record<string, Array<Row>> = { a: [{ id: "a1", t: 5 }], b: [{ id: "b1", t: 7 }, { id: "b2", t: 8 }] }
 * const options = (name: string): FullHistory.Options<Row> => ({
 *   fetch: (start, end) => Effect.succeed(rows[name]!.filter((r) => r.t >= start && r.t <= end)),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (x, y) => x.t - y.t || x.id.localeCompare(y.id),
 *   fingerprint: (r) => r.id,
 *   limit: 100,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 10,
 *   concurrency: 1,
 *   follow: { interval: Duration.zero, settlement: 0, now: Clock.currentTimeMillis }
 * })
 * const merged = FollowScheduler.changes([{ stream: "a", options: options("a") }, { stream: "b", options: options("b") }])
 * const first = await Effect.runPromise(Stream.runCollect(Stream.take(merged, 3)))
 * assert.deepStrictEqual(
 *   Chunk.toReadonlyArray(first).map((c) => `${c.stream}:${c.record.id}`).sort(),
 *   ["a:a1", "b:b1", "b:b2"]
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const changes = <K, A>(
  streams: Iterable<Followed<K, A>>,
  options: Options = {}
): Stream.Stream<Change<K, A>, BrokerError> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const settings = yield* FollowSettings.settingsOf("follow", options)
    const list = Array.from(streams)
    const missing = list.findIndex((s) => s.options.follow === undefined)
    if (missing >= 0) {
      return yield* new InvalidQuery({
        endpoint: "follow",
        parameter: `streams[${missing}].follow`,
        rule: "must be given: its settlement window and the server's clock"
      })
    }
    const start = yield* Clock.currentTimeMillis
    const schedule = yield* Ref.make(PollSchedule.make(list.length, settings, start))
    // The grant each stream waits for; a stream replaces its own when it asks for its next poll.
    const grants = yield* Effect.forEach(list, () => Deferred.make<void>())
    const wake = yield* Queue.sliding<void>(1)
    yield* Effect.forkScoped(dispatch(schedule, grants, wake))
    return Stream.mergeAll(
      list.map((followed, i) => followOne(followed, i, settings, { schedule, grants, wake })),
      { concurrency: "unbounded" }
    )
  }))

interface Shared {
  readonly schedule: Ref.Ref<PollSchedule.Schedule>
  readonly grants: Array<Deferred.Deferred<void>>
  readonly wake: Queue.Queue<void>
}

/** Grants the polls the schedule picks, then waits for the next due time or the end of a poll. */
const dispatch = (
  schedule: Ref.Ref<PollSchedule.Schedule>,
  grants: ReadonlyArray<Deferred.Deferred<void>>,
  wake: Queue.Queue<void>
): Effect.Effect<never> =>
  Effect.forever(Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const picked = yield* Ref.modify(schedule, (s) => {
      const [next, streams] = PollSchedule.pick(s, now)
      return [streams, next] as const
    })
    for (const i of picked) yield* Deferred.succeed(grants[i]!, undefined)
    const due = PollSchedule.nextDue(yield* Ref.get(schedule))
    // Due streams left over wait for a slot, that is for a poll to end.
    yield* due === undefined || due <= now
      ? Queue.take(wake)
      : Effect.race(Queue.take(wake), Effect.sleep(Duration.millis(due - now)))
  }))

/** What a stream's polls brought: records from the last `maxInterval` count as activity. */
interface Activity {
  readonly found: number
  readonly recentFrom: number
}

/**
 * One stream: waits for its first grant, then follows with `follow.now` as the gate of every later
 * poll: the walk asks for the server's now when its last poll has ended and its changes were taken.
 */
const followOne = <K, A>(
  followed: Followed<K, A>,
  index: number,
  settings: PollSchedule.Settings,
  shared: Shared
): Stream.Stream<Change<K, A>, BrokerError> =>
  Stream.unwrap(Effect.gen(function*() {
    const options = followed.options
    const follow = options.follow!
    const activity = yield* Ref.make<Activity>({ found: 0, recentFrom: 0 })
    const granted = Effect.flatMap(follow.now, (now) =>
      Effect.as(Ref.set(activity, { found: 0, recentFrom: now - settings.maxInterval }), now))
    yield* Deferred.await(shared.grants[index]!)
    const until = Math.max(options.until, yield* granted)
    const nextPoll = Effect.gen(function*() {
      const grant = yield* Deferred.make<void>()
      shared.grants[index] = grant
      const { found } = yield* Ref.get(activity)
      const now = yield* Clock.currentTimeMillis
      yield* Ref.update(shared.schedule, (s) =>
        PollSchedule.polled(s, index, found, now))
      yield* Queue.offer(shared.wake, undefined)
      yield* Deferred.await(grant)
      return yield* granted
    })
    const stream = followed.stream
    return FullHistory.changes({
      ...options,
      until,
      follow: { interval: Duration.zero, settlement: follow.settlement, now: nextPoll }
    }).pipe(Stream.mapChunksEffect((chunk) =>
      Effect.as(
        Ref.update(activity, (a) => ({
          found: a.found + Chunk.reduce(chunk, 0, (n, c) => options.time(c.record) >= a.recentFrom ? n + 1 : n),
          recentFrom: a.recentFrom
        })),
        Chunk.map(chunk, (c): Change<K, A> => ({ stream, kind: c.kind, record: c.record, checkpoint: c.checkpoint }))
      )
    ))
  }))
