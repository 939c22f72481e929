/**
 * The two lines of an outage the sync rides out (the database, or the broker service while catching
 * up; the state is the client's `Outage`): when it starts, what is unavailable, why and when the next
 * try is; when it ends, how long it lasted.
 *
 * @internal
 */
import * as Duration from "effect/Duration"

const text = (millis: number) => Duration.format(Duration.millis(Math.max(0, Math.round(millis))))

/** The line of an outage's start: what is unavailable, why, and when the next try is. */
export const startedLine = (what: string, cause: string, retryMillis: number, maxMillis: number): string =>
  `${what} unavailable: ${cause}; retrying in ${text(retryMillis)}, backing off up to ${
    text(maxMillis)
  }, until it is back`

/** The line of an outage's end: how long it lasted and how many attempts failed meanwhile. */
export const endedLine = (what: string, millis: number, failures: number): string =>
  `${what} available again after ${text(millis)} unavailable (${failures} failed ${
    failures === 1 ? "attempt" : "attempts"
  })`
