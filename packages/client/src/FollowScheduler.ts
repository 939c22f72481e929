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
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { BrokerError } from "./BrokerError.js"
import type * as Checkpoint from "./Checkpoint.js"
import type * as FullHistory from "./FullHistory.js"
import * as Scheduler from "./internal/follow/Scheduler.js"
import * as StreamQuery from "./internal/line/StreamQuery.js"
import * as OptionRules from "./internal/query/OptionRules.js"

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
} = OptionRules.scheduleDefaults

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
  Stream.unwrap(Effect.gen(function*() {
    const { concurrency, maxInterval, minInterval } = yield* StreamQuery.decode(StreamQuery.schedule, "follow")(options)
    const list = Array.from(streams)
    const missing = list.findIndex((s) => s.options.follow === undefined)
    if (missing >= 0) {
      return yield* OptionRules.invalid(
        "follow",
        `streams[${missing}].follow`,
        "must be given: its settlement window and the server's clock"
      )
    }
    return Scheduler.run(list, { minInterval, maxInterval, slots: concurrency })
  }))
