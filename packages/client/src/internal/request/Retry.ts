/**
 * The retry loop for one request: backoff with jitter, `Retry-After` obeyed, attempts counted.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import type { Settings } from "../../BrokerConfig.js"
import type { BrokerError } from "../../BrokerError.js"
import { isRetryable } from "../../BrokerError.js"
import * as RetryWait from "./RetryWait.js"

/** Exponential backoff for the retry that follows attempt `attempt` (1-based), jittered to 50–100 %. */
export const backoff = (retry: Settings["retry"], attempt: number): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.next, (r) => {
    const base = Duration.toMillis(retry.baseDelay) * 2 ** (attempt - 1)
    const capped = Math.min(base, Duration.toMillis(retry.maxDelay))
    return Duration.millis(Math.round(capped * (0.5 + r / 2)))
  })

/** The wait before the next attempt: what the service asked for on 429, otherwise backoff. */
export const delayAfter = (retry: Settings["retry"], error: BrokerError, attempt: number) =>
  error._tag === "RateLimited" && error.retryAfterMillis > 0
    ? Effect.succeed(Duration.millis(error.retryAfterMillis))
    : backoff(retry, attempt)

/**
 * Whether a failure of attempt `n` (1-based, within one round of `retrying`) is retried. A refusal
 * asking for a longer wait than `retry.maxRetryAfter` (its `maxRetryAfterMillis` set) is not: waiting
 * that long inside one request would hold its caller silently.
 */
export const willRetry = (retry: Settings["retry"], error: BrokerError, n: number): boolean =>
  isRetryable(error) && n <= retry.maxRetries &&
  !(error._tag === "RateLimited" && error.maxRetryAfterMillis !== undefined)

/**
 * Runs `attempt(n)` until it succeeds, fails with a final error, or the retry budget is spent.
 * `onRetry` runs before each wait (for metrics and logs).
 */
export const retrying = <A>(
  retry: Settings["retry"],
  attempt: (n: number) => Effect.Effect<A, BrokerError>,
  onRetry: (error: BrokerError, n: number, delay: Duration.Duration) => Effect.Effect<void>
): Effect.Effect<A, BrokerError> => {
  const loop = (n: number): Effect.Effect<A, BrokerError> =>
    Effect.catchAll(attempt(n), (error) =>
      willRetry(retry, error, n)
        ? Effect.flatMap(delayAfter(retry, error, n), (delay) =>
          Effect.zipRight(
            Effect.zipRight(
              onRetry(error, n, delay),
              // A refused request's wait may lend its caller's slot (RetryWait); any other waits in place.
              error._tag === "RateLimited" ? RetryWait.waiting(Effect.sleep(delay)) : Effect.sleep(delay)
            ),
            loop(n + 1)
          ))
        : Effect.fail(error))
  return loop(1)
}
