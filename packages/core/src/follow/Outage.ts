/**
 * One outage of something a long-running program depends on (the broker service, a database), as a
 * value and four events, value in, value out: `succeeded` (an attempt went through), `failed` (an
 * attempt failed transiently), `announced` (the failure is being ridden out: the outage's start is to
 * be logged, once) and `waiting` (a long wait the service asked for: logged once per wait, not once
 * per waiting stream). Each line's client re-exports it as its `Outage`, with the waits between tries
 * (`backoff`, an Effect schedule); the client's follow streams track the service with it
 * (`BrokerHistory.availability`); the `broker-history sync` command tracks its database the same way.
 *
 * An outage starts with the first transient failure and ends with the next success. A failure of an
 * attempt that began before the last success is not news (the dependency answered since it began; its
 * tries straddled the recovery), so it starts no outage: an outage's end is not followed by a stray
 * start from the attempts that were in flight when it ended.
 *
 * @since 0.2.0
 */

/**
 * The current outage.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const state = Outage.failed(Outage.initial, { at: 1_000, message: "connect ECONNREFUSED", tag: "TransportError" }, 0)
 * const current: Outage.Current | undefined = state.outage
 * assert.strictEqual(current?.since, 1_000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Current {
  /** When it started (ms): the first failure. */
  readonly since: number
  /** The one-line message of the failure that started it. */
  readonly failure: string
  /** That failure's tag (`ServerError`, `TransportError`, `SqlError`, …). */
  readonly tag: string
  /** Failures seen during it, the first included. */
  readonly failures: number
  /** Its start was logged (the failure is ridden out): its end is logged too. */
  readonly announced: boolean
  /** The end of the long wait last logged, if any. */
  readonly resumesAt: number | undefined
}

/**
 * What is known of one dependency: its last success, the successes counted so far, and the current
 * outage.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const [state] = Outage.succeeded(Outage.initial, 5_000)
 * const known: Outage.State = state
 * assert.deepStrictEqual(known, { lastSuccess: 5_000, successes: 1, outage: undefined })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  /** When an attempt last succeeded (ms). */
  readonly lastSuccess: number | undefined
  /** Successful attempts so far: an attempt notes it when it begins (see `failed`). */
  readonly successes: number
  readonly outage: Current | undefined
}

/**
 * A failure as recorded: when, its message (only its first line is kept) and its tag.
 *
 * @example
 * ```ts
 * import type * as Outage from "@broker-history/core/follow/Outage"
 *
 * const failure: Outage.Failure = { at: 1_000, message: "the database system is shutting down", tag: "SqlError" }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Failure {
  readonly at: number
  readonly message: string
  readonly tag: string
}

/**
 * An announced outage ended: it lasted `at - since`, with `failures` failed attempts.
 *
 * @example
 * ```ts
 * import type * as Outage from "@broker-history/core/follow/Outage"
 *
 * const length = (ended: Outage.Ended) => ended.at - ended.since
 * assert.strictEqual(length({ since: 1_000, at: 21_000, failures: 7 }), 20_000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Ended {
  readonly since: number
  readonly at: number
  readonly failures: number
}

/**
 * Nothing known yet: no success, no outage.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * assert.deepStrictEqual(Outage.initial, { lastSuccess: undefined, successes: 0, outage: undefined })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const initial: State = { lastSuccess: undefined, successes: 0, outage: undefined }

/**
 * An attempt went through at `at`: the outage, if any, ends; `Ended` when its start was logged.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const down = Outage.failed(Outage.initial, { at: 1_000, message: "503", tag: "ServerError" }, 0)
 * const [announced] = Outage.announced(down)
 * const [up, ended] = Outage.succeeded(announced, 21_000)
 * assert.deepStrictEqual(ended, { since: 1_000, at: 21_000, failures: 1 })
 * assert.strictEqual(up.outage, undefined)
 * ```
 *
 * @since 0.2.0
 * @category events
 */
export const succeeded = (state: State, at: number): readonly [State, Ended | undefined] => {
  const next: State = { lastSuccess: at, successes: state.successes + 1, outage: undefined }
  const outage = state.outage
  return [next, outage?.announced ? { since: outage.since, at, failures: outage.failures } : undefined]
}

/**
 * An attempt that began when `successes` attempts had succeeded failed transiently: the outage
 * starts, or counts one more failure. A stale failure (a success came after the attempt began)
 * changes nothing.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const [recovered] = Outage.succeeded(Outage.initial, 10)
 * // Began before that success (when 0 had succeeded): not news.
 * assert.strictEqual(Outage.failed(recovered, { at: 11, message: "late", tag: "ServerError" }, 0), recovered)
 * assert.strictEqual(Outage.failed(recovered, { at: 11, message: "fresh", tag: "ServerError" }, 1).outage?.failure, "fresh")
 * ```
 *
 * @since 0.2.0
 * @category events
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

/**
 * The failure is being ridden out: the outage, when its start has not been logged yet, to log now.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const down = Outage.failed(Outage.initial, { at: 1_000, message: "503", tag: "ServerError" }, 0)
 * const [once, started] = Outage.announced(down)
 * assert.strictEqual(started?.since, 1_000)
 * assert.strictEqual(Outage.announced(once)[1], undefined)
 * ```
 *
 * @since 0.2.0
 * @category events
 */
export const announced = (state: State): readonly [State, Current | undefined] => {
  const outage = state.outage
  if (outage === undefined || outage.announced) return [state, undefined]
  return [{ ...state, outage: { ...outage, announced: true } }, outage]
}

/**
 * A long wait until `resumesAt` (a service's `Retry-After`): whether to log it, which is when no
 * logged wait of this outage is still running (every stream refused at once gets its own wait,
 * ending a few ms apart: one line). Outside an outage (a stale failure) nothing is logged.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * const down = Outage.failed(Outage.initial, { at: 0, message: "429", tag: "RateLimited" }, 0)
 * const [first, log] = Outage.waiting(down, 0, 300_000)
 * assert.strictEqual(log, true)
 * assert.strictEqual(Outage.waiting(first, 5, 300_005)[1], false)
 * ```
 *
 * @since 0.2.0
 * @category events
 */
export const waiting = (state: State, now: number, resumesAt: number): readonly [State, boolean] => {
  const outage = state.outage
  if (outage === undefined) return [state, false]
  if (outage.resumesAt !== undefined && now < outage.resumesAt) {
    return resumesAt > outage.resumesAt ? [{ ...state, outage: { ...outage, resumesAt } }, false] : [state, false]
  }
  return [{ ...state, outage: { ...outage, resumesAt } }, true]
}

/**
 * A message's first line: an error's message may carry details after it.
 *
 * @example
 * ```ts
 * import * as Outage from "@broker-history/core/follow/Outage"
 *
 * assert.strictEqual(Outage.firstLine("Connection terminated\n    at Socket…"), "Connection terminated")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const firstLine = (message: string): string => {
  const end = message.indexOf("\n")
  return end < 0 ? message : message.slice(0, end)
}
