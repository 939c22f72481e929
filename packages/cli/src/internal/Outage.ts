/**
 * One outage of something a follower depends on (the database, or the broker service while catching
 * up), as a value and three events, value in, value out: `failed` (an attempt failed transiently),
 * `announced` (the retry's wait is known: the outage's start is logged once) and `succeeded` (an
 * attempt went through: the outage ends, logged once). Also the two log lines.
 *
 * A failure of an attempt that began before the last success is not news (the attempt straddled the
 * recovery), so it starts no new outage.
 *
 * @internal
 */
import * as Duration from "effect/Duration"

/** The current outage. */
export interface Current {
  /** When the first failure was seen (ms). */
  readonly since: number
  /** The first failure, in one line. */
  readonly cause: string
  /** Failed attempts during it, the first included. */
  readonly failures: number
  /** Its start was logged: its end is logged too. */
  readonly announced: boolean
}

export interface State {
  /** Attempts that succeeded so far: an attempt notes the count when it begins (see `failed`). */
  readonly successes: number
  readonly outage: Current | undefined
}

export const initial: State = { successes: 0, outage: undefined }

/**
 * An attempt that began when `successes` attempts had succeeded failed transiently at `at`: the
 * outage starts, or counts one more failure. A stale failure (a success came after the attempt
 * began) changes nothing.
 */
export const failed = (state: State, at: number, cause: string, successes: number): State => {
  if (successes < state.successes) return state
  const outage = state.outage
  return {
    ...state,
    outage: outage === undefined
      ? { since: at, cause, failures: 1, announced: false }
      : { ...outage, failures: outage.failures + 1 }
  }
}

/** The retry's wait is decided: the outage, when its start has not been logged yet, to log now. */
export const announced = (state: State): readonly [State, Current | undefined] => {
  const outage = state.outage
  if (outage === undefined || outage.announced) return [state, undefined]
  return [{ ...state, outage: { ...outage, announced: true } }, outage]
}

/** An attempt succeeded at `at`: the outage, if any, ends; returned when its start was logged. */
export const succeeded = (
  state: State,
  at: number
): readonly [State, (Current & { readonly at: number }) | undefined] => {
  const outage = state.outage
  return [
    { successes: state.successes + 1, outage: undefined },
    outage?.announced ? { ...outage, at } : undefined
  ]
}

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
