/**
 * The retries of one request, decided by the configured `Schedule` (docs/configuration.md, "Retries"):
 * only retryable failures reach it, a 429/418's `Retry-After` replaces the wait it chose, and the
 * wait itself happens here, not inside the schedule, so that a refused request can lend its slot.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { BrokerError } from "../../BrokerError.js"
import { isRetryable } from "../../BrokerError.js"
import * as Effects from "../line/Effects.js"
import * as Schedules from "../line/Schedules.js"
import * as RetryWait from "./RetryWait.js"

/** What decides the retries of a request: a schedule fed the failures. */
export type Policy = Schedules.Policy<BrokerError>

/**
 * The default policy: exponential backoff from `baseDelay`, doubling, capped at `maxDelay`, each
 * wait jittered to 50–100 %, at most `maxRetries` retries.
 */
export const backoff = (options: {
  readonly maxRetries: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
}): Policy => Schedules.backoff(options)

/** Whether a failure may be retried at all. A wait longer than `retry.maxRetryAfter` never is. */
export const retryable = (error: BrokerError): boolean =>
  isRetryable(error) && !(error._tag === "RateLimited" && error.maxRetryAfterMillis !== undefined)

/** The decision for one failure: `None` ends the retries, `Some` is the wait before the next attempt. */
export type Decide = (error: BrokerError) => Effect.Effect<Option.Option<Duration.Duration>>

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
    // The schedule stepped for its decisions (the wait it chooses is read, not slept), made on the
    // first failure: most requests never need one.
    let step: ((error: BrokerError) => Effect.Effect<Option.Option<Duration.Duration>>) | undefined
    let last: { readonly error: BrokerError; readonly delay: Option.Option<Duration.Duration> } | undefined
    const next = (error: BrokerError) =>
      Effect.suspend(() => {
        if (step !== undefined) return step(error)
        return Effect.flatMap(Schedules.stepper(policy), (made) => {
          step = made
          return made(error)
        })
      })
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
      Effects.recover(attempt(n, decide), (error) =>
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
