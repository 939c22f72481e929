/**
 * The options of the follow scheduler checked and in ms, with their defaults: nothing is sent when
 * one is wrong.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { InvalidQuery } from "../../BrokerError.js"
import type * as PollSchedule from "./PollSchedule.js"

export interface Input {
  readonly minInterval?: Duration.DurationInput | undefined
  readonly maxInterval?: Duration.DurationInput | undefined
  readonly concurrency?: number | undefined
}

export const defaults = { minInterval: Duration.seconds(1), maxInterval: Duration.minutes(5), concurrency: 8 } as const

const millis = (input: Duration.DurationInput | undefined, fallback: Duration.Duration): number => {
  const decoded = Duration.decodeUnknown(input ?? fallback)
  return decoded._tag === "Some" && Duration.isFinite(decoded.value) ? Duration.toMillis(decoded.value) : NaN
}

/** The schedule's settings in ms, or an `InvalidQuery` of `endpoint` naming the bad option. */
export const settingsOf = (endpoint: string, options: Input): Effect.Effect<PollSchedule.Settings, InvalidQuery> =>
  Effect.suspend(() => {
    const fail = (parameter: string, rule: string) => Effect.fail(new InvalidQuery({ endpoint, parameter, rule }))
    const minInterval = millis(options.minInterval, defaults.minInterval)
    if (!(minInterval > 0)) return fail("minInterval", "must be a positive, finite duration")
    const maxInterval = millis(options.maxInterval, defaults.maxInterval)
    if (!(maxInterval >= minInterval)) return fail("maxInterval", "must be a finite duration, at least minInterval")
    const slots = options.concurrency ?? defaults.concurrency
    if (!Number.isSafeInteger(slots) || slots < 1 || slots > 64) {
      return fail("concurrency", "must be an integer from 1 to 64")
    }
    return Effect.succeed({ minInterval, maxInterval, slots })
  })

/** The settlement window in ms (default 1 day), or an `InvalidQuery` of `endpoint`. */
export const settlementOf = (
  endpoint: string,
  settlement: Duration.DurationInput | undefined,
  fallback: Duration.Duration
): Effect.Effect<number, InvalidQuery> => {
  const ms = millis(settlement, fallback)
  return ms >= 0
    ? Effect.succeed(ms)
    : Effect.fail(new InvalidQuery({ endpoint, parameter: "settlement", rule: "must be a finite duration" }))
}

/** An `InvalidQuery` of the `index`th stream's query names that stream. */
export const ofStream = (index: number) => <E>(error: E): E | InvalidQuery =>
  error instanceof InvalidQuery
    ? new InvalidQuery({
      endpoint: error.endpoint,
      parameter: `streams[${index}].${error.parameter}`,
      rule: error.rule
    })
    : error
