/**
 * Client configuration: where the service is, the credentials (always `Redacted`), and the request,
 * retry, rate-limit and window settings. Build it from options (`layer`) or the environment
 * (`layerConfig`); both validate everything up front and fail with a `ConfigError` naming the setting.
 *
 * @since 0.2.0
 */
import * as CoreSettings from "@broker-history/core/config/Settings"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import type { BrokerError } from "./BrokerError.js"
import * as SettingsCheck from "./internal/line/SettingsCheck.js"
import * as Retry from "./internal/request/Retry.js"

/**
 * The resolved configuration every client service reads: every setting as
 * `@broker-history/core/config/Settings`'s `Resolved` describes it, the credentials `Redacted`, the
 * durations `Duration`s and the retry schedule an Effect `Schedule`.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Duration, Redacted, Result } from "effect"
 *
 * const settings: BrokerConfig.Settings = Result.getOrThrow(
 *   BrokerConfig.resolve({
 *     apiKey: Redacted.make("key"),
 *     secretKey: Redacted.make("secret"),
 *     baseUrl: "https://api.mexc.com/"
 *   })
 * )
 * assert.strictEqual(settings.baseUrl, "https://api.mexc.com")
 * assert.strictEqual(Duration.toSeconds(settings.requestTimeout), 10)
 * assert.strictEqual(settings.maxWindow.transfers, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Settings
  extends CoreSettings.Resolved<Duration.Duration, Schedule.Schedule<unknown, BrokerError>, Redacted.Redacted<string>>
{}

/**
 * The configuration service: its value is the resolved `Settings`.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Duration, Effect, Redacted } from "effect"
 *
 * const budget = Effect.gen(function*() {
 *   const config = yield* BrokerConfig.BrokerConfig
 *   return `${config.rateLimit.limit} requests per ${Duration.format(config.rateLimit.interval)}`
 * })
 * const ConfigLive = BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })
 * assert.strictEqual(Effect.runSync(Effect.provide(budget, ConfigLive)), "20 requests per 1s")
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class BrokerConfig
  extends Context.Service<BrokerConfig, Settings>()("@broker-history/client-effect4/BrokerConfig")
{}

/**
 * Options for `layer`. Only the credentials are required (`Redacted`); every option, its default and
 * its rule, is `@broker-history/core/config/Settings`'s `Options`, the durations given as Effect's
 * duration input and the retry schedule as an Effect `Schedule`.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Redacted, Result } from "effect"
 *
 * const options: BrokerConfig.Options = {
 *   apiKey: Redacted.make("key"),
 *   secretKey: Redacted.make("secret"),
 *   requestTimeout: "30 seconds",
 *   retry: { maxRetries: 2 },
 *   rateLimit: { limit: 10, interval: "1 second" }
 * }
 * assert.ok(Result.isSuccess(BrokerConfig.resolve(options)))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Options
  extends CoreSettings.Options<Duration.Input, Schedule.Schedule<unknown, BrokerError>, Redacted.Redacted<string>>
{}

/**
 * Defaults of every optional setting.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(BrokerConfig.defaults.baseUrl, "https://api.mexc.com")
 * assert.strictEqual(BrokerConfig.defaults.maxRetries, 5)
 * assert.strictEqual(Duration.toDays(BrokerConfig.defaults.depositMaxWindow), 10)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaults: CoreSettings.Defaults<Duration.Duration> = CoreSettings.defaultsWith(Duration.millis)

/**
 * The environment variables `layerConfig` reads, each with its default.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(BrokerConfig.env.apiKey, "BROKER_API_KEY")
 * assert.strictEqual(BrokerConfig.env.rateLimit, "BROKER_RATE_LIMIT")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const env: typeof CoreSettings.variables = CoreSettings.variables

/**
 * Checks options and fills in defaults. Pure: the same checks back `layer` and `layerConfig`.
 * `names` maps each setting to the name used in error messages (option or variable name).
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Redacted, Result } from "effect"
 *
 * const credentials = { apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }
 * const insecure = BrokerConfig.resolve({ ...credentials, baseUrl: "http://example.com" })
 * assert.ok(Result.isFailure(insecure))
 * assert.match(insecure.failure.message, /baseUrl must use https:\/\/ \(example\.com is not loopback\)/)
 * assert.ok(Result.isSuccess(BrokerConfig.resolve({ ...credentials, baseUrl: "http://127.0.0.1:8080" })))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const resolve = (
  options: Options,
  names: CoreSettings.Names = CoreSettings.optionNames
): Result.Result<Settings, Config.ConfigError> => {
  const resolved = CoreSettings.resolve(options, names, line)
  return resolved._tag === "Invalid"
    ? SettingsCheck.invalid(resolved.problem.setting, resolved.problem.message)
    : Result.succeed(resolved.settings)
}

// What core's checks need of Effect 4: its durations, schedules, the defaults as durations, its secrets.
const line: CoreSettings.Line<Duration.Duration, Schedule.Schedule<unknown, BrokerError>, Redacted.Redacted<string>> = {
  duration: SettingsCheck.durationOf,
  millis: Duration.toMillis,
  isSchedule: (u): u is Schedule.Schedule<unknown, BrokerError> => Schedule.isSchedule(u),
  backoff: Retry.backoff,
  defaults,
  reveal: Redacted.value
}

/**
 * The default retry schedule, with its numbers: exponential backoff from `baseDelay`, doubling,
 * capped at `maxDelay`, each wait jittered to 50–100 %, at most `maxRetries` retries. A start for
 * your own schedule (`retry: { schedule }`).
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Redacted, Result, Schedule } from "effect"
 *
 * // The default backoff, but giving up 30 seconds after the first failure.
 * const schedule = BrokerConfig.retrySchedule({ maxRetries: 10, baseDelay: "100 millis", maxDelay: "5 seconds" }).pipe(
 *   Schedule.upTo({ duration: "30 seconds" })
 * )
 * const credentials = { apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }
 * assert.ok(Result.isSuccess(BrokerConfig.resolve({ ...credentials, retry: schedule })))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const retrySchedule = (options: {
  readonly maxRetries: number
  readonly baseDelay: Duration.Input
  readonly maxDelay: Duration.Input
}): Schedule.Schedule<unknown, BrokerError> =>
  Retry.backoff({
    maxRetries: options.maxRetries,
    baseDelay: Duration.fromInputUnsafe(options.baseDelay),
    maxDelay: Duration.fromInputUnsafe(options.maxDelay)
  })

/**
 * Configuration from options.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Effect, Exit, Layer, Redacted } from "effect"
 *
 * const ConfigLive = BrokerConfig.layer({
 *   apiKey: Redacted.make(process.env.MY_BROKER_KEY ?? "key"),
 *   secretKey: Redacted.make(process.env.MY_BROKER_SECRET ?? "secret"),
 *   rateLimit: { limit: 10 }
 * })
 * assert.ok(Exit.isSuccess(Effect.runSyncExit(Effect.scoped(Layer.build(ConfigLive)))))
 *
 * const Invalid = BrokerConfig.layer({
 *   apiKey: Redacted.make("key"),
 *   secretKey: Redacted.make("secret"),
 *   recvWindow: 90_000
 * })
 * assert.ok(Exit.isFailure(Effect.runSyncExit(Effect.scoped(Layer.build(Invalid)))))
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<BrokerConfig, Config.ConfigError> =>
  Layer.effect(BrokerConfig, Effect.suspend(() => Effect.fromResult(resolve(options))))

/**
 * The options read from the environment (see `env` for the variable names). Durations use Effect's
 * duration text (`"10 seconds"`, `"500 millis"`); `BROKER_RECV_WINDOW` is milliseconds.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { ConfigProvider, Duration, Effect } from "effect"
 *
 * const environment = ConfigProvider.fromEnv({
 *   env: { BROKER_API_KEY: "key", BROKER_SECRET_KEY: "secret", BROKER_REQUEST_TIMEOUT: "30 seconds" }
 * })
 * const options = Effect.runSync(BrokerConfig.config.parse(environment))
 * assert.strictEqual(Duration.toSeconds(options.requestTimeout ?? 0), 30)
 * assert.strictEqual(options.baseUrl, "https://api.mexc.com")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const config: Config.Config<Options> = Config.all({
  baseUrl: Config.String(env.baseUrl).pipe(Config.withDefault(defaults.baseUrl)),
  apiKey: Config.Redacted(env.apiKey),
  secretKey: Config.Redacted(env.secretKey),
  apiKeyHeader: Config.String(env.apiKeyHeader).pipe(Config.withDefault(defaults.apiKeyHeader)),
  recvWindow: Config.Int(env.recvWindow).pipe(Config.option, Config.map(Option.getOrUndefined)),
  requestTimeout: Config.Duration(env.requestTimeout).pipe(Config.withDefault(defaults.requestTimeout)),
  retry: Config.all({
    maxRetries: Config.Int(env.maxRetries).pipe(Config.withDefault(defaults.maxRetries)),
    baseDelay: Config.Duration(env.retryBaseDelay).pipe(Config.withDefault(defaults.baseDelay)),
    maxDelay: Config.Duration(env.retryMaxDelay).pipe(Config.withDefault(defaults.maxDelay)),
    maxRetryAfter: Config.Duration(env.maxRetryAfter).pipe(Config.withDefault(defaults.maxRetryAfter)),
    followMaxDelay: Config.Duration(env.followMaxDelay).pipe(Config.withDefault(defaults.followMaxDelay))
  }),
  rateLimit: Config.all({
    limit: Config.Int(env.rateLimit).pipe(Config.withDefault(defaults.rateLimit)),
    interval: Config.Duration(env.rateLimitInterval).pipe(Config.withDefault(defaults.rateLimitInterval)),
    margin: Config.Duration(env.rateLimitMargin).pipe(Config.withDefault(defaults.rateLimitMargin)),
    adaptive: Config.Boolean(env.rateLimitAdaptive).pipe(Config.withDefault(defaults.rateLimitAdaptive))
  }),
  maxWindow: Config.all({
    transfers: Config.Duration(env.transferMaxWindow).pipe(Config.option, Config.map(Option.getOrUndefined)),
    deposits: Config.Duration(env.depositMaxWindow).pipe(Config.withDefault(defaults.depositMaxWindow))
  }),
  allowInsecureHttp: Config.Boolean(env.allowInsecureHttp).pipe(Config.withDefault(false)),
  maxResponseBytes: Config.Int(env.maxResponseBytes).pipe(Config.withDefault(defaults.maxResponseBytes)),
  maxPagesPerMillisecond: Config.Int(env.maxPagesPerMillisecond).pipe(
    Config.withDefault(defaults.maxPagesPerMillisecond)
  ),
  onIncomplete: Config.Literals(["fail", "warn"], env.onIncomplete).pipe(Config.withDefault(defaults.onIncomplete))
})

/**
 * Configuration read with `config`, checked like `layer`'s options. By default `config` is
 * `BrokerConfig.config`: the `BROKER_*` environment variables (`BROKER_BASE_URL`, default
 * `https://api.mexc.com`; `BROKER_API_KEY` and `BROKER_SECRET_KEY`, required, kept `Redacted`; the
 * others in `env`), and errors name those variables. Pass your own `Config`s to read elsewhere.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Cause, Config, ConfigProvider, Effect, Exit } from "effect"
 *
 * const FromEnvironment = BrokerConfig.layerConfig()
 * const Custom = BrokerConfig.layerConfig({
 *   apiKey: Config.Redacted("MEXC_KEY"),
 *   secretKey: Config.Redacted("MEXC_SECRET"),
 *   rateLimit: { limit: Config.succeed(10) }
 * })
 *
 * const limit = BrokerConfig.BrokerConfig.useSync((config) => config.rateLimit.limit)
 * const environment = ConfigProvider.fromEnv({ env: { MEXC_KEY: "key", MEXC_SECRET: "secret" } })
 * const withEnvironment = Effect.provideService(ConfigProvider.ConfigProvider, environment)
 * assert.strictEqual(Effect.runSync(limit.pipe(Effect.provide(Custom), withEnvironment)), 10)
 *
 * const missing = Effect.runSyncExit(limit.pipe(Effect.provide(FromEnvironment), withEnvironment))
 * assert.ok(Exit.isFailure(missing) && Cause.pretty(missing.cause).includes("BROKER_API_KEY"))
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerConfig = (
  wrapped: Config.Wrap<Options> = config
): Layer.Layer<BrokerConfig, Config.ConfigError> =>
  Layer.effect(
    BrokerConfig,
    Effect.flatMap(
      Config.unwrap(wrapped),
      (options) =>
        Effect.fromResult(
          resolve(options, wrapped === config ? CoreSettings.fromVariables(env) : CoreSettings.optionNames)
        )
    )
  )
