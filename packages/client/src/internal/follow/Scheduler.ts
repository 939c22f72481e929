/**
 * The follow scheduler's engine (`FollowScheduler.changes`, `BrokerHistory.followTransfers` /
 * `followDeposits`), its options already decoded: a dispatcher grants the polls the schedule
 * (`PollSchedule`) picks, and each stream waits for its grant before every poll.
 *
 * @internal
 */
import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import type { BrokerError } from "../../BrokerError.js"
import type * as Checkpoint from "../../Checkpoint.js"
import * as FullHistory from "../../FullHistory.js"
import * as Streams from "../line/Streams.js"

/** One stream: the caller's id and the walk's options, whose `follow` must be given. */
interface Followed<K, A> {
  readonly stream: K
  readonly options: FullHistory.Options<A>
}

/** A change of one stream, tagged with its id. */
type Change<K, A> = Checkpoint.Change<A> & { readonly stream: K }

/** Every stream followed on one schedule: one merged stream of their changes. */
export const run = <K, A>(
  list: ReadonlyArray<Followed<K, A>>,
  settings: PollSchedule.Settings
): Stream.Stream<Change<K, A>, BrokerError> =>
  Streams.unwrapScoped(Effect.gen(function*() {
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
    // Due streams left over wait for a slot, that is for a poll to end. The wait for the next due
    // time is in whole milliseconds: Effect sleeps whole nanoseconds, so a wait under half of one
    // would be none, and this loop would spin at the same time instead of waiting.
    yield* due === undefined || due <= now
      ? Queue.take(wake)
      : Effect.race(Queue.take(wake), Effect.sleep(Duration.millis(Math.ceil(due - now))))
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
    const changes = FullHistory.changes({
      ...options,
      until,
      follow: { interval: Duration.zero, settlement: follow.settlement, now: nextPoll }
    })
    return Streams.mapArraysEffect(changes, (found) =>
      Effect.as(
        Ref.update(activity, (a) => ({
          found: a.found + found.reduce((n, c) => options.time(c.record) >= a.recentFrom ? n + 1 : n, 0),
          recentFrom: a.recentFrom
        })),
        found.map((c): Change<K, A> => ({ stream, kind: c.kind, record: c.record, checkpoint: c.checkpoint }))
      ))
  }))
