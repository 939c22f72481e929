/**
 * Whether one layer's service is answering: when a request last succeeded and, during an outage,
 * when it started and which failure started it. A value and three events, value in, value out:
 * `succeeded` (a request answered), `failed` (a request failed after its retries with a transient
 * error), `announced` (a follow stream rides the failure out: the outage's start is logged once) and
 * `waiting` (a follow stream waits a long `Retry-After`: logged once per wait, not once per stream).
 *
 * An outage starts with the first transient failure and ends with the next success. A failure of a
 * request that began before the last success is not news (the service answered since it began; its
 * attempts straddled the recovery), so it starts no outage: an outage's end is not followed by a
 * stray start from the requests that were in flight when it ended.
 *
 * @internal
 */

/** The current outage. */
export interface Outage {
  /** When it started (ms): the first failure. */
  readonly since: number
  /** The one-line message of the failure that started it. */
  readonly failure: string
  /** That failure's tag (`ServerError`, `TransportError`, …). */
  readonly tag: string
  /** Failures seen during it, the first included. */
  readonly failures: number
  /** Its start was logged (a follow stream rides it out): its end is logged too. */
  readonly announced: boolean
  /** The end of the long `Retry-After` wait last logged, if any. */
  readonly resumesAt: number | undefined
}

export interface State {
  /** When a request last succeeded (ms). */
  readonly lastSuccess: number | undefined
  /** Successful requests so far: a request notes it when it begins (see `failed`). */
  readonly successes: number
  readonly outage: Outage | undefined
}

/** A failure as recorded: when, its one-line message and its tag. */
export interface Failure {
  readonly at: number
  readonly message: string
  readonly tag: string
}

/** An announced outage ended: it lasted `at - since`. */
export interface Ended {
  readonly since: number
  readonly at: number
  readonly failures: number
}

export const initial: State = { lastSuccess: undefined, successes: 0, outage: undefined }

/** A request answered at `at`: the outage, if any, ends; `Ended` when its start was logged. */
export const succeeded = (state: State, at: number): readonly [State, Ended | undefined] => {
  const next: State = { lastSuccess: at, successes: state.successes + 1, outage: undefined }
  const outage = state.outage
  return [next, outage?.announced ? { since: outage.since, at, failures: outage.failures } : undefined]
}

/**
 * A request that began when `successes` requests had succeeded failed after its retries with a
 * transient error: the outage starts, or counts one more failure. A stale failure (a success came
 * after the request began) changes nothing.
 */
export const failed = (state: State, failure: Failure, successes: number): State => {
  if (successes < state.successes) return state
  const outage = state.outage
  return {
    ...state,
    outage: outage === undefined
      ? {
        since: failure.at,
        failure: firstLine(failure.message),
        tag: failure.tag,
        failures: 1,
        announced: false,
        resumesAt: undefined
      }
      : { ...outage, failures: outage.failures + 1 }
  }
}

/** A follow stream retries a failure: the outage, when its start has not been logged yet, to log now. */
export const announced = (state: State): readonly [State, Outage | undefined] => {
  const outage = state.outage
  if (outage === undefined || outage.announced) return [state, undefined]
  return [{ ...state, outage: { ...outage, announced: true } }, outage]
}

/**
 * A follow stream waits a long `Retry-After` until `resumesAt`: whether to log it, which is when no
 * logged wait of this outage is still running (every stream refused at once gets its own wait, ending
 * a few ms apart: one line). Outside an outage (a stale failure) nothing is logged.
 */
export const waiting = (state: State, now: number, resumesAt: number): readonly [State, boolean] => {
  const outage = state.outage
  if (outage === undefined) return [state, false]
  if (outage.resumesAt !== undefined && now < outage.resumesAt) {
    return resumesAt > outage.resumesAt ? [{ ...state, outage: { ...outage, resumesAt } }, false] : [state, false]
  }
  return [{ ...state, outage: { ...outage, resumesAt } }, true]
}

/** What a supervisor sees. */
export interface View {
  readonly lastSuccess: number | undefined
  readonly unavailableSince: number | undefined
  readonly lastFailure: string | undefined
}

export const view = (state: State): View => ({
  lastSuccess: state.lastSuccess,
  unavailableSince: state.outage?.since,
  lastFailure: state.outage?.failure
})

/** A message's first line: an error's message may carry details after it. */
export const firstLine = (message: string): string => {
  const end = message.indexOf("\n")
  return end < 0 ? message : message.slice(0, end)
}
