/**
 * One layer's availability tracker (the Effect shell over `Outage`): every request of the
 * layer is recorded (`track`), and the requests of follow streams ride out transient failures
 * (`rideOut`): a request that failed after its own retries with a transient error is tried again
 * without limit, backing off up to `retry.followMaxDelay` (or waiting the service's `Retry-After`).
 * The outage is logged once when a follower first rides it out and once when it ends, per layer.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Settings } from "../../BrokerConfig.js"
import { type BrokerError, isRetryable } from "../../BrokerError.js"
import * as Outage from "../../Outage.js"
import * as Effects from "../line/Effects.js"
import * as Schedules from "../line/Schedules.js"

export interface Tracker {
  /**
   * The request, its success or transient failure recorded. `answered: false` for an effect whose
   * success may have made no request (a clock read): only its failure is recorded.
   */
  readonly track: <A>(request: Effect.Effect<A, BrokerError>, answered?: boolean) => Effect.Effect<A, BrokerError>
  /** A follow stream's request: tracked, and tried again after a transient failure, without limit. */
  readonly rideOut: <A>(
    request: Effect.Effect<A, BrokerError>,
    answered?: boolean
  ) => Effect.Effect<A, BrokerError>
  /** The layer's outage state now (what a supervisor sees). */
  readonly state: Effect.Effect<Outage.State>
}

/** The settings a follow stream's backoff reads. */
export type FollowRetry = Pick<Settings["retry"], "baseDelay" | "followMaxDelay" | "maxRetryAfter">

/**
 * The waits of a follow stream between tries of a request that failed transiently: doubling from
 * `baseDelay`, capped at `followMaxDelay`, jittered to 50–100 %; after a `RateLimited`, the wait the
 * service asked for. A permanent failure ends it.
 */
export const schedule = (retry: FollowRetry): Schedules.Policy<BrokerError> =>
  Schedules.fedWith(
    Outage.backoff(retry.baseDelay, retry.followMaxDelay),
    isRetryable,
    (error, delay) =>
      error._tag === "RateLimited" && error.retryAfterMillis > 0 ? Duration.millis(error.retryAfterMillis) : delay
  )

/** A tracker for one layer. Its state is a value replaced synchronously (each update is atomic). */
export const make = (retry: FollowRetry): Tracker => {
  let state = Outage.initial

  const track = <A>(request: Effect.Effect<A, BrokerError>, answered = true): Effect.Effect<A, BrokerError> =>
    Effect.suspend(() => {
      const successes = state.successes
      return Effect.tapError(
        Effect.tap(request, () =>
          !answered ? Effect.void : Effect.clockWith((clock) => {
            const [next, ended] = Outage.succeeded(state, Effects.currentTimeMillisUnsafe(clock))
            state = next
            return ended === undefined ? Effect.void : logEnded(ended)
          })),
        (error) =>
          isRetryable(error)
            ? Effect.clockWith((clock) => {
              const at = Effects.currentTimeMillisUnsafe(clock)
              state = Outage.failed(state, { at, message: error.message, tag: error._tag }, successes)
              return Effect.void
            })
            : Effect.void
      )
    })

  const maxRetryAfter = Duration.toMillis(retry.maxRetryAfter)
  // Before each wait: the outage's start logged once (a warning), a long Retry-After wait once per
  // wait (a warning), every other failure at debug level.
  const logged = (error: BrokerError, delay: Duration.Duration): Effect.Effect<void> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const [next, started] = Outage.announced(state)
      const long = error._tag === "RateLimited" && error.retryAfterMillis > maxRetryAfter
      const [after, wait] = long ? Outage.waiting(next, now, now + Duration.toMillis(delay)) : [next, false]
      state = after
      return started !== undefined
        ? logStarted(started, error, delay, retry.followMaxDelay, now)
        : wait
        ? logWait(error, delay, now)
        : logRetry(error, delay)
    })

  // One schedule per tracker; each request steps its own copy, made on its first failure (most
  // requests never fail).
  const waits = schedule(retry)
  const rideOut = <A>(request: Effect.Effect<A, BrokerError>, answered?: boolean): Effect.Effect<A, BrokerError> => {
    const tracked = track(request, answered)
    type Step = (error: BrokerError) => Effect.Effect<Option.Option<Duration.Duration>>
    // The schedule's wait after `error`, then the request again; its end fails with `error`.
    const waitThenRetry = (step: Step) => (error: BrokerError): Effect.Effect<A, BrokerError> =>
      Effect.flatMap(step(error), (delay) =>
        Option.isNone(delay)
          ? Effect.fail(error)
          : Effect.andThen(
            Effect.andThen(logged(error, delay.value), Effect.sleep(delay.value)),
            Effects.recover(tracked, waitThenRetry(step))
          ))
    return Effects.recover(
      tracked,
      (error) => Effect.flatMap(Schedules.stepper(waits), (step) => waitThenRetry(step)(error))
    )
  }

  return { track, rideOut, state: Effect.sync(() => state) }
}

/** The outage's start: its cause and how the follow streams retry (a Retry-After: until when). */
const logStarted = (
  outage: Outage.Current,
  error: BrokerError,
  delay: Duration.Duration,
  maxDelay: Duration.Duration,
  now: number
) => {
  const wait = Duration.format(delay)
  const retryAfter = error._tag === "RateLimited" && error.retryAfterMillis > 0
  const resumesAt = new Date(now + Duration.toMillis(delay)).toISOString()
  const retrying = retryAfter
    ? `Follow streams wait the service's Retry-After of ${wait}, resuming at ${resumesAt}.`
    : `Follow streams retry in ${wait}, backing off up to ${Duration.format(maxDelay)}.`
  return Effect.logWarning(`broker service unavailable (${outage.tag}): ${outage.failure} ${retrying}`).pipe(
    Effect.annotateLogs({
      error: outage.tag,
      failure: outage.failure,
      since: new Date(outage.since).toISOString(),
      retryMillis: Duration.toMillis(delay),
      ...(retryAfter ? { resumesAt } : { maxRetryMillis: Duration.toMillis(maxDelay) })
    })
  )
}

/** A long Retry-After during an outage already logged: its length and when the streams resume. */
const logWait = (error: BrokerError, delay: Duration.Duration, now: number) => {
  const resumesAt = new Date(now + Duration.toMillis(delay)).toISOString()
  return Effect.logWarning(
    `broker service asks to wait (${error._tag}): ${
      Outage.firstLine(error.message)
    } Follow streams wait the service's Retry-After of ${Duration.format(delay)}, resuming at ${resumesAt}.`
  ).pipe(
    Effect.annotateLogs({
      error: error._tag,
      failure: Outage.firstLine(error.message),
      retryMillis: Duration.toMillis(delay),
      resumesAt
    })
  )
}

/** A failure during an outage already logged. */
const logRetry = (error: BrokerError, delay: Duration.Duration) =>
  Effect.logDebug("broker follow request failed again; retrying").pipe(
    Effect.annotateLogs({
      error: error._tag,
      failure: Outage.firstLine(error.message),
      retryMillis: Duration.toMillis(delay)
    })
  )

/** The outage's end: how long it lasted. */
const logEnded = (ended: Outage.Ended) => {
  const millis = ended.at - ended.since
  const since = new Date(ended.since).toISOString()
  return Effect.logInfo(
    `broker service available again after ${
      Duration.format(Duration.millis(millis))
    } unavailable (since ${since}, ${ended.failures} failed requests)`
  ).pipe(Effect.annotateLogs({ since, outageMillis: millis, failures: ended.failures }))
}
