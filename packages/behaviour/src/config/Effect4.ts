/**
 * The Effect 4 line's settings behind the suite's `ConfigLine`: `BrokerConfig.resolve` and
 * `layerConfig()`, the resolved settings read back as data, its schedules' delays stepped by
 * `Schedule.toStep` up to where each ends.
 */
import { BrokerConfig, BrokerError } from "@broker-history/client-effect4"
import * as Outage from "@broker-history/client-effect4/Outage"
import type { Config } from "effect-4"
import { ConfigProvider, Duration, Effect, Pull, Redacted, Result, Schedule } from "effect-4"
import * as RideOut from "../../../client-effect4/src/internal/follow/RideOut.js"
import type { ConfigLine, Resolution } from "../Config.js"
import { asData } from "../Config.js"

/** The delays (ms) `schedule` chooses for `inputs` one after the other, stepped at time 0, up to its end. */
const delaysOf = <In>(schedule: Schedule.Schedule<unknown, In>, inputs: ReadonlyArray<In>): ReadonlyArray<number> =>
  Effect.runSync(Effect.gen(function*() {
    const step = yield* Schedule.toStep(schedule)
    const delays: Array<number> = []
    for (const input of inputs) {
      const next = yield* Pull.matchEffect(step(0, input), {
        onSuccess: ([, delay]) => Effect.succeed<number | undefined>(Duration.toMillis(delay)),
        onDone: () => Effect.succeed(undefined),
        onFailure: Effect.failCause
      })
      if (next === undefined) break
      delays.push(next)
    }
    return delays
  }))

const serverError = () =>
  new BrokerError.ServerError({ request: { endpoint: "transferHistory" }, status: 503, attempts: 1 })

const resolution = (result: Result.Result<BrokerConfig.Settings, Config.ConfigError>): Resolution => {
  if (Result.isFailure(result)) return { _tag: "Failure", text: String(result.failure) }
  return {
    _tag: "Success",
    settings: asData(result.success, {
      millis: Duration.toMillis,
      reveal: Redacted.value,
      // The retries the schedule allows a request that keeps failing (at most 200).
      retries: (schedule) => delaysOf(schedule, Array.from({ length: 200 }, serverError)).length
    })
  }
}

const errors = BrokerError as unknown as Record<string, new(fields: unknown) => BrokerError.BrokerError>

/** The line under its suite name. */
export const config: ConfigLine = {
  name: "effect4",
  resolve: ({ apiKey, secretKey, ...options }) =>
    resolution(BrokerConfig.resolve({
      ...options,
      apiKey: Redacted.make(String(apiKey)),
      secretKey: Redacted.make(String(secretKey))
    } as BrokerConfig.Options)),
  fromVariables: (variables) =>
    resolution(Effect.runSync(Effect.result(
      Effect.service(BrokerConfig.BrokerConfig).pipe(
        Effect.provide(BrokerConfig.layerConfig()),
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: variables }))
      )
    ))),
  recurs: (n) => Schedule.recurs(n),
  delays: {
    retryDefault: (count) =>
      delaysOf(BrokerConfig.retrySchedule(BrokerConfig.defaults), Array.from({ length: count }, serverError)),
    outageBackoff: (baseDelay, maxDelay, count) =>
      delaysOf(
        Outage.backoff(baseDelay as Duration.Input, maxDelay as Duration.Input),
        Array.from({ length: count }, () => undefined)
      ),
    rideOut: (retry, failures) =>
      delaysOf(
        RideOut.schedule({
          baseDelay: Duration.millis(retry.baseDelay),
          maxRetryAfter: Duration.millis(retry.maxRetryAfter),
          followMaxDelay: Duration.millis(retry.followMaxDelay)
        }),
        failures.map(({ _tag, fields }) => new errors[_tag]!(fields))
      )
  }
}
