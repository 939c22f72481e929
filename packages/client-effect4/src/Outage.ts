/**
 * One outage of something a long-running program depends on (the broker service, a database), as a
 * value and four events, value in, value out: `succeeded` (an attempt went through), `failed` (an
 * attempt failed transiently), `announced` (the failure is being ridden out: the outage's start is to
 * be logged, once) and `waiting` (a long wait the service asked for: logged once per wait, not once
 * per waiting stream): `@broker-history/core/follow/Outage`, re-exported here; with `backoff`, the
 * waits between tries. The client's follow streams track the service with it
 * (`BrokerHistory.availability`); the `broker-history sync` command tracks its database the same way.
 *
 * An outage starts with the first transient failure and ends with the next success. A failure of an
 * attempt that began before the last success is not news (the dependency answered since it began; its
 * tries straddled the recovery), so it starts no outage: an outage's end is not followed by a stray
 * start from the attempts that were in flight when it ended.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schedules from "./internal/line/Schedules.js"

/**
 * Everything of `@broker-history/core/follow/Outage`: the models (`State`, `Current`, `Failure`,
 * `Ended`), `initial`, the events (`succeeded`, `failed`, `announced`, `waiting`) and `firstLine`.
 *
 * @example
 * ```ts
 * import { Outage } from "@broker-history/client-effect4"
 *
 * const down = Outage.failed(Outage.initial, { at: 1_000, message: "503", tag: "ServerError" }, 0)
 * const [announced, started] = Outage.announced(down)
 * assert.strictEqual(started?.since, 1_000)
 * assert.deepStrictEqual(Outage.succeeded(announced, 21_000)[1], { since: 1_000, at: 21_000, failures: 1 })
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/follow/Outage"

/**
 * The waits between tries while riding an outage out, without limit: doubling from `baseDelay`,
 * capped at `maxDelay`, each jittered to 50–100 % and rounded to whole milliseconds. Its output is
 * the wait.
 *
 * @example
 * ```ts
 * import { Outage } from "@broker-history/client-effect4"
 * import { Duration, Effect, Schedule } from "effect"
 *
 * const tryAgain = <A, E>(attempt: Effect.Effect<A, E>) => Effect.retry(attempt, Outage.backoff("200 millis", "1 minute"))
 * const firstWaits = Effect.runSync(Effect.gen(function*() {
 *   const step = yield* Schedule.toStep(Outage.backoff("200 millis", "1 minute"))
 *   const waits: Array<number> = []
 *   for (let i = 0; i < 3; i++) waits.push(Duration.toMillis((yield* step(0, undefined))[1]))
 *   return waits
 * }))
 * assert.ok(firstWaits[0] >= 100 && firstWaits[0] <= 200 && firstWaits[2] >= 400 && firstWaits[2] <= 800)
 * ```
 *
 * @since 0.2.0
 * @category schedules
 */
export const backoff = (
  baseDelay: Duration.Input,
  maxDelay: Duration.Input
): Schedule.Schedule<Duration.Duration> =>
  Schedule.min([Schedule.exponential(baseDelay), Schedule.spaced(maxDelay)]).pipe(
    Schedule.modifyDelay(({ duration }) =>
      Effect.map(Schedules.jitter(duration), (delay) => Duration.millis(Math.round(Duration.toMillis(delay))))
    ),
    Schedule.map(({ duration }) => duration)
  )
