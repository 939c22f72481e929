/**
 * The retries of one request, decided by the configured `Schedule` (docs/configuration.md, "Retries"):
 * only retryable failures reach it, a 429/418's `Retry-After` replaces the wait it chose, and the
 * wait itself happens here, not inside the schedule, so that a refused request can lend its slot.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import type { BrokerError } from "../../BrokerError.js"
import { isRetryable } from "../../BrokerError.js"
import * as RetryWait from "./RetryWait.js"

/** What decides the retries of a request: a schedule fed the failures. */
export type Policy = Schedule.Schedule<unknown, BrokerError>

/**
 * The default policy: exponential backoff from `baseDelay`, doubling, capped at `maxDelay`, each
 * wait jittered to 50–100 %, at most `maxRetries` retries.
 */
export const backoff = (options: {
  readonly maxRetries: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
}): Policy =>
  Schedule.max([
    Schedule.exponential(options.baseDelay, 2).pipe(
      Schedule.modifyDelay(({ duration }) => jitter(Duration.min(duration, options.maxDelay)))
    ),
    Schedule.recurs(options.maxRetries)
  ])

/** A wait jittered to 50–100 % of `delay`: retries of many requests failed together do not return together. */
export const jitter = (delay: Duration.Duration): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.next, (r) => Duration.millis(Duration.toMillis(delay) * (0.5 + 0.5 * r)))

/** Whether a failure may be retried at all. A wait longer than `retry.maxRetryAfter` never is. */
export const retryable = (error: BrokerError): boolean =>
  isRetryable(error) && !(error._tag === "RateLimited" && error.maxRetryAfterMillis !== undefined)

/** The decision for one failure: `None` ends the retries, `Some` is the wait before the next attempt. */
export type Decide = (error: BrokerError) => Effect.Effect<Option.Option<Duration.Duration>>

type Step = (now: number, input: BrokerError) => Pull.Pull<[unknown, Duration.Duration], never, unknown>

/**
 * Runs `attempt(n, decide)` (n from 1) until it succeeds or a failure is not retried. An attempt may
 * call `decide` on its failure itself (to record the decision in its span); the loop then uses that
 * decision instead of stepping the schedule again. `onRetry` runs before each wait.
 */
export const retrying = <A>(
  policy: Policy,
  attempt: (n: number, decide: Decide) => Effect.Effect<A, BrokerError>,
  onRetry: (error: BrokerError, n: number, delay: Duration.Duration) => Effect.Effect<void>
): Effect.Effect<A, BrokerError> =>
  Effect.suspend(() => {
    // The schedule stepped for its decision only: the delay it chose is read, not slept. Made on the
    // first failure: most requests never need one.
    let step: Step | undefined
    let last: { readonly error: BrokerError; readonly delay: Option.Option<Duration.Duration> } | undefined
    const next = (error: BrokerError): Effect.Effect<Option.Option<Duration.Duration>> =>
      Effect.flatMap(
        step === undefined
          ? Effect.map(Schedule.toStep(policy), (made) => {
            step = made
            return made
          })
          : Effect.succeed(step),
        (stepNow) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Pull.matchEffect(stepNow(now, error), {
              onSuccess: ([, delay]) => Effect.succeed(Option.some(delay)),
              onDone: () => Effect.succeed(Option.none<Duration.Duration>()),
              onFailure: Effect.failCause
            }))
      )
    const decide: Decide = (error) =>
      Effect.suspend(() => {
        if (last !== undefined && last.error === error) return Effect.succeed(last.delay)
        const decided = retryable(error)
          ? Effect.map(
            next(error),
            Option.map((delay) =>
              error._tag === "RateLimited" && error.retryAfterMillis > 0
                ? Duration.millis(error.retryAfterMillis)
                : delay
            )
          )
          : Effect.succeed(Option.none<Duration.Duration>())
        return Effect.map(decided, (delay) => {
          last = { error, delay }
          return delay
        })
      })
    const loop = (n: number): Effect.Effect<A, BrokerError> =>
      Effect.catch(attempt(n, decide), (error) =>
        Effect.flatMap(decide(error), (delay) =>
          Option.isNone(delay)
            ? Effect.fail(error)
            : Effect.andThen(
              Effect.andThen(
                onRetry(error, n, delay.value),
                // A refused request's wait may lend its caller's slot (RetryWait); any other waits in place.
                error._tag === "RateLimited" ? RetryWait.waiting(Effect.sleep(delay.value)) : Effect.sleep(delay.value)
              ),
              loop(n + 1)
            )))
    return loop(1)
  })
