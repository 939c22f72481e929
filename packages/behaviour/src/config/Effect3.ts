/**
 * The Effect 3 line's settings behind the suite's `ConfigLine`: `BrokerConfig.resolve` and
 * `layerConfig()`, the resolved settings read back as data, its schedules' delays stepped by
 * `Schedule.run` (which reports the step that ends a schedule too: left out here).
 */
import { BrokerConfig, BrokerError } from "@broker-history/client"
import * as Outage from "@broker-history/client/Outage"
import type { ConfigError } from "effect"
import { Chunk, ConfigProvider, Duration, Effect, Either, Option, Redacted, Schedule } from "effect"
import * as RideOut from "../../../client/src/internal/follow/RideOut.js"
import type { ConfigLine, Resolution } from "../Config.js"
import { asData } from "../Config.js"

/** How many retries `schedule` allows a request that keeps failing with a ServerError (at most 200). */
const retriesOf = (schedule: Schedule.Schedule<unknown, BrokerError.BrokerError>) =>
  Effect.runSync(Effect.gen(function*() {
    const driver = yield* Schedule.driver(Schedule.modifyDelay(schedule, () => Duration.zero))
    const failure = new BrokerError.ServerError({ request: { endpoint: "transferHistory" }, status: 503, attempts: 1 })
    let retries = 0
    while (retries < 200 && Option.isSome(yield* Effect.option(driver.next(failure)))) retries++
    return retries
  }))

const resolution = (result: Either.Either<BrokerConfig.Settings, ConfigError.ConfigError>): Resolution => {
  if (Either.isLeft(result)) return { _tag: "Failure", text: String(result.left) }
  return {
    _tag: "Success",
    settings: asData(result.right, { millis: Duration.toMillis, reveal: Redacted.value, retries: retriesOf })
  }
}

/** The delays `schedule` chooses for `inputs`, without the step that ends it. */
const delaysOf = <In>(schedule: Schedule.Schedule<unknown, In>, inputs: ReadonlyArray<In>) => {
  const delays = Chunk.toReadonlyArray(Effect.runSync(Schedule.run(Schedule.delays(schedule), 0, inputs)))
    .map(Duration.toMillis)
  return delays.length < inputs.length ? delays.slice(0, -1) : delays
}

const errors = BrokerError as unknown as Record<string, new(fields: unknown) => BrokerError.BrokerError>

/** The line under its suite name. */
export const config: ConfigLine = {
  name: "effect3",
  resolve: ({ apiKey, secretKey, ...options }) =>
    resolution(BrokerConfig.resolve({
      ...options,
      apiKey: Redacted.make(String(apiKey)),
      secretKey: Redacted.make(String(secretKey))
    } as BrokerConfig.Options)),
  fromVariables: (variables) =>
    resolution(Effect.runSync(Effect.either(
      BrokerConfig.BrokerConfig.pipe(
        Effect.provide(BrokerConfig.layerConfig()),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables))))
      )
    ))),
  recurs: (n) => Schedule.recurs(n),
  delays: {
    retryDefault: (count) =>
      delaysOf(
        BrokerConfig.retrySchedule(BrokerConfig.defaults),
        Array.from(
          { length: count },
          () => new BrokerError.ServerError({ request: { endpoint: "transferHistory" }, status: 503, attempts: 1 })
        )
      ),
    outageBackoff: (baseDelay, maxDelay, count) =>
      delaysOf(
        Outage.backoff(baseDelay as Duration.DurationInput, maxDelay as Duration.DurationInput),
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
