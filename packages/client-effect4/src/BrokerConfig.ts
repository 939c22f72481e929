/**
 * Client configuration: where the service is, the credentials (always `Redacted`), and the request,
 * retry, rate-limit and window settings. Build it from options (`layer`) or the environment
 * (`layerConfig`); both validate everything up front and fail with a `ConfigError` naming the setting.
 *
 * @since 0.2.0
 */
import { Endpoint } from "@broker-history/domain-effect4"
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
import * as Retry from "./internal/request/Retry.js"
import * as SettingsCheck from "./internal/SettingsCheck.js"

/**
 * The resolved configuration every client service reads.
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
export interface Settings {
  /** Base URL without a trailing slash, e.g. `https://api.mexc.com`. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly secretKey: Redacted.Redacted<string>
  /** Header that carries the API key (`X-MEXC-APIKEY`). */
  readonly apiKeyHeader: string
  /** `recvWindow` in ms sent with every request, or `undefined` to use the service default (5000). */
  readonly recvWindow: number | undefined
  /** Time allowed for one attempt (connect, answer and body). */
  readonly requestTimeout: Duration.Duration
  readonly retry: {
    /**
     * Decides whether and when a failed attempt is tried again; only retryable failures (5xx, 429,
     * transport, damaged body) reach it, and a 429/418's `Retry-After` replaces the wait it chose.
     */
    readonly schedule: Schedule.Schedule<unknown, BrokerError>
    /** First wait of a follow stream's backoff (and of the default schedule). */
    readonly baseDelay: Duration.Duration
    /**
     * Longest `Retry-After` obeyed. A refusal that asks for a longer wait fails at once with
     * `RateLimited` (carrying the wait), except in a follow stream, which waits it out.
     */
    readonly maxRetryAfter: Duration.Duration
    /**
     * Cap of the backoff of a follow stream whose request failed after every retry with a transient
     * failure: it is tried again without limit, the waits doubling from `baseDelay` up to this.
     */
    readonly followMaxDelay: Duration.Duration
  }
  /** Request budget shared by every call and stream built from one layer. */
  readonly rateLimit: {
    readonly limit: number
    readonly interval: Duration.Duration
    /**
     * Added to `interval` when spacing requests. Requests started exactly `interval` apart can reach
     * the service closer together than that (network and scheduling jitter) and trip its own limiter.
     */
    readonly margin: Duration.Duration
    /**
     * `limit` is an upper bound: a 429/418 lowers the rate to below what the service accepted, and it
     * grows back over time (docs/configuration.md, "Adaptive rate"). Off: always `limit`.
     */
    readonly adaptive: boolean
  }
  /**
   * Widest time window one request may cover, per endpoint (`undefined`: no limit). An upper bound:
   * when the service refuses a window as too wide, the streams narrow it and keep to the widest window
   * it accepts, learned once per endpoint for the layer (docs/streams.md, "Window widths"); only a
   * service that refuses windows of a minute, or refuses a width it accepted before, makes a stream
   * fail with an `ApiError` naming this setting.
   */
  readonly maxWindow: { readonly transfers: Duration.Duration | undefined; readonly deposits: Duration.Duration }
  /** Largest response body read, in bytes; a larger one fails the attempt as a `ResponseDecodeError`. */
  readonly maxResponseBytes: number
  /** Most pages read of one millisecond that holds more than a page (the walk's only deep paging). */
  readonly maxPagesPerMillisecond: number
  /**
   * What a full-history stream does when the service does not serve every record of a millisecond
   * (`IncompleteHistory`): `"fail"` the stream, or `"warn"` (a warning log, the metric
   * `broker_history_incomplete_total`) and go on.
   */
  readonly onIncomplete: "fail" | "warn"
  /**
   * How messages name each setting: the option (`secretKey`), and, when the settings were read from
   * the `BROKER_*` variables, the variable too (`secretKey (from BROKER_SECRET_KEY)`). Errors that say
   * what to check or raise use these names.
   */
  readonly names: Readonly<Record<keyof typeof env, string>>
}

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
 * Options for `layer`. Only the credentials are required.
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
export interface Options {
  /** Default `https://api.mexc.com`. Plain `http://` only for loopback or with `allowInsecureHttp`. */
  readonly baseUrl?: string | undefined
  readonly apiKey: Redacted.Redacted<string>
  readonly secretKey: Redacted.Redacted<string>
  /** Default `X-MEXC-APIKEY`. */
  readonly apiKeyHeader?: string | undefined
  /** Milliseconds, 1..60000. Default: not sent (the service uses 5000). */
  readonly recvWindow?: number | undefined
  /** Default 10 seconds. */
  readonly requestTimeout?: Duration.Input | undefined
  /**
   * A `Schedule` deciding the retries (see `Settings.retry.schedule`), or the default schedule's
   * numbers: 5 retries, 200 ms base delay doubling up to 10 s (`retrySchedule`). `Retry-After` is
   * obeyed up to 1 minute; follow streams back off up to 1 minute. A `schedule` comes with neither
   * `maxRetries` nor `maxDelay`, which only shape the default.
   */
  readonly retry?: Schedule.Schedule<unknown, BrokerError> | {
    readonly schedule?: Schedule.Schedule<unknown, BrokerError> | undefined
    readonly maxRetries?: number | undefined
    readonly baseDelay?: Duration.Input | undefined
    readonly maxDelay?: Duration.Input | undefined
    readonly maxRetryAfter?: Duration.Input | undefined
    readonly followMaxDelay?: Duration.Input | undefined
  } | undefined
  /** Default 20 requests per 1 second (MEXC's stated account budget). */
  readonly rateLimit?: {
    readonly limit?: number | undefined
    readonly interval?: Duration.Input | undefined
    /** Default 25 ms: added to the interval so jitter cannot push the service over its limit. */
    readonly margin?: Duration.Input | undefined
    /** Default `true`: lower the rate after a 429/418 and grow it back to `limit` over time. */
    readonly adaptive?: boolean | undefined
  } | undefined
  /**
   * Defaults: transfers unlimited, deposits 10 days. An upper bound: a stream learns a narrower
   * maximum from the service's refusals (see `Settings.maxWindow`).
   */
  readonly maxWindow?: {
    readonly transfers?: Duration.Input | undefined
    readonly deposits?: Duration.Input | undefined
  } | undefined
  /** Allow `http://` to a non-loopback host. The API key then crosses the network in clear text. */
  readonly allowInsecureHttp?: boolean | undefined
  /** Default 16 MiB (16777216 bytes); 1024 to 1073741824. */
  readonly maxResponseBytes?: number | undefined
  /** Default 20; 1 to 1000. */
  readonly maxPagesPerMillisecond?: number | undefined
  /** Default `"fail"`. */
  readonly onIncomplete?: "fail" | "warn" | undefined
}

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
export const defaults = {
  baseUrl: "https://api.mexc.com",
  apiKeyHeader: Endpoint.apiKeyHeader,
  requestTimeout: Duration.seconds(10),
  maxRetries: 5,
  baseDelay: Duration.millis(200),
  maxDelay: Duration.seconds(10),
  maxRetryAfter: Duration.minutes(1),
  followMaxDelay: Duration.minutes(1),
  rateLimit: 20,
  rateLimitInterval: Duration.seconds(1),
  rateLimitMargin: Duration.millis(25),
  rateLimitAdaptive: true,
  depositMaxWindow: Endpoint.depositDefaultWindow,
  maxResponseBytes: 16 * 1024 * 1024,
  maxPagesPerMillisecond: 20,
  onIncomplete: "fail"
} as const

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
export const env = {
  baseUrl: "BROKER_BASE_URL",
  apiKey: "BROKER_API_KEY",
  secretKey: "BROKER_SECRET_KEY",
  apiKeyHeader: "BROKER_API_KEY_HEADER",
  recvWindow: "BROKER_RECV_WINDOW",
  requestTimeout: "BROKER_REQUEST_TIMEOUT",
  retrySchedule: "retry.schedule",
  maxRetries: "BROKER_MAX_RETRIES",
  retryBaseDelay: "BROKER_RETRY_BASE_DELAY",
  retryMaxDelay: "BROKER_RETRY_MAX_DELAY",
  maxRetryAfter: "BROKER_MAX_RETRY_AFTER",
  followMaxDelay: "BROKER_FOLLOW_RETRY_MAX_DELAY",
  rateLimit: "BROKER_RATE_LIMIT",
  rateLimitInterval: "BROKER_RATE_LIMIT_INTERVAL",
  rateLimitMargin: "BROKER_RATE_LIMIT_MARGIN",
  rateLimitAdaptive: "BROKER_RATE_LIMIT_ADAPTIVE",
  transferMaxWindow: "BROKER_TRANSFER_MAX_WINDOW",
  depositMaxWindow: "BROKER_DEPOSIT_MAX_WINDOW",
  allowInsecureHttp: "BROKER_ALLOW_INSECURE_HTTP",
  maxResponseBytes: "BROKER_MAX_RESPONSE_BYTES",
  maxPagesPerMillisecond: "BROKER_MAX_PAGES_PER_MILLISECOND",
  onIncomplete: "BROKER_ON_INCOMPLETE"
} as const satisfies SettingsCheck.Names

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
  names: SettingsCheck.Names = SettingsCheck.optionNames
): Result.Result<Settings, Config.ConfigError> =>
  Result.gen(function*() {
    const baseUrlText = options.baseUrl ?? defaults.baseUrl
    let url: URL
    try {
      url = new URL(baseUrlText)
    } catch {
      return yield* SettingsCheck.invalid(
        names.baseUrl,
        `${names.baseUrl} is not a valid URL: ${JSON.stringify(baseUrlText)}`
      )
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return yield* SettingsCheck.invalid(names.baseUrl, `${names.baseUrl} must be an http(s) URL, got ${url.protocol}`)
    }
    if (url.protocol === "http:" && !SettingsCheck.loopbackHost(url.hostname) && options.allowInsecureHttp !== true) {
      return yield* SettingsCheck.invalid(
        names.baseUrl,
        `${names.baseUrl} must use https:// (${url.host} is not loopback): the API key would cross the network in clear text; set ${names.allowInsecureHttp} to allow it anyway`
      )
    }
    if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
      return yield* SettingsCheck.invalid(
        names.baseUrl,
        `${names.baseUrl} must not carry a query, fragment or credentials`
      )
    }
    const baseUrl = url.toString().replace(/\/+$/, "")
    const apiKey = yield* SettingsCheck.credential(names.apiKey, Redacted.value(options.apiKey))
    if (/[\r\n]/.test(apiKey)) {
      return yield* SettingsCheck.invalid(names.apiKey, `${names.apiKey} contains a line break`)
    }
    yield* SettingsCheck.credential(names.secretKey, Redacted.value(options.secretKey))
    const apiKeyHeader = options.apiKeyHeader ?? defaults.apiKeyHeader
    if (!/^[A-Za-z0-9-]+$/.test(apiKeyHeader)) {
      return yield* SettingsCheck.invalid(
        names.apiKeyHeader,
        `${names.apiKeyHeader} must be a header name (letters, digits, -)`
      )
    }
    const recvWindow = options.recvWindow
    if (
      recvWindow !== undefined &&
      (!Number.isInteger(recvWindow) || recvWindow < Endpoint.recvWindow.min || recvWindow > Endpoint.recvWindow.max)
    ) {
      return yield* SettingsCheck.invalid(
        names.recvWindow,
        `${names.recvWindow} must be an integer number of ms from 1 to 60000`
      )
    }
    const requestTimeout = yield* SettingsCheck.positiveDuration(
      names.requestTimeout,
      options.requestTimeout ?? defaults.requestTimeout
    )
    const retry = yield* resolveRetry(options.retry, names)
    const limit = options.rateLimit?.limit ?? defaults.rateLimit
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > SettingsCheck.maxRateLimit) {
      return yield* SettingsCheck.invalid(
        names.rateLimit,
        `${names.rateLimit} must be a whole number of requests from 1 to ${SettingsCheck.maxRateLimit} (for more, shorten the interval)`
      )
    }
    const interval = yield* SettingsCheck.positiveDuration(
      names.rateLimitInterval,
      options.rateLimit?.interval ?? defaults.rateLimitInterval
    )
    const margin = SettingsCheck.durationOf(options.rateLimit?.margin ?? defaults.rateLimitMargin)
    if (margin === undefined || !Duration.isFinite(margin) || Duration.toMillis(margin) < 0) {
      return yield* SettingsCheck.invalid(
        names.rateLimitMargin,
        `${names.rateLimitMargin} must be a finite duration (0 allowed)`
      )
    }
    const adaptive = options.rateLimit?.adaptive ?? defaults.rateLimitAdaptive
    if (typeof adaptive !== "boolean") {
      return yield* SettingsCheck.invalid(names.rateLimitAdaptive, `${names.rateLimitAdaptive} must be true or false`)
    }
    const transfers = options.maxWindow?.transfers === undefined
      ? undefined
      : yield* SettingsCheck.positiveDuration(names.transferMaxWindow, options.maxWindow.transfers)
    const deposits = yield* SettingsCheck.positiveDuration(
      names.depositMaxWindow,
      options.maxWindow?.deposits ?? defaults.depositMaxWindow
    )
    const maxResponseBytes = yield* SettingsCheck.wholeNumber(
      names.maxResponseBytes,
      options.maxResponseBytes ?? defaults.maxResponseBytes,
      SettingsCheck.responseBytes
    )
    const maxPagesPerMillisecond = yield* SettingsCheck.wholeNumber(
      names.maxPagesPerMillisecond,
      options.maxPagesPerMillisecond ?? defaults.maxPagesPerMillisecond,
      SettingsCheck.pagesPerMillisecond
    )
    const onIncomplete = options.onIncomplete ?? defaults.onIncomplete
    if (onIncomplete !== "fail" && onIncomplete !== "warn") {
      return yield* SettingsCheck.invalid(names.onIncomplete, `${names.onIncomplete} must be "fail" or "warn"`)
    }
    return {
      baseUrl,
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      apiKeyHeader,
      recvWindow,
      requestTimeout,
      retry,
      rateLimit: { limit, interval, margin, adaptive },
      maxWindow: { transfers, deposits },
      maxResponseBytes,
      maxPagesPerMillisecond,
      onIncomplete,
      names
    }
  })

const resolveRetry = (
  option: Options["retry"],
  names: SettingsCheck.Names
): Result.Result<Settings["retry"], Config.ConfigError> =>
  Result.gen(function*() {
    const retry = Schedule.isSchedule(option) ? { schedule: option } : option ?? {}
    const baseDelay = yield* SettingsCheck.positiveDuration(names.retryBaseDelay, retry.baseDelay ?? defaults.baseDelay)
    const maxRetryAfter = yield* SettingsCheck.positiveDuration(
      names.maxRetryAfter,
      retry.maxRetryAfter ?? defaults.maxRetryAfter
    )
    const followMaxDelay = yield* SettingsCheck.positiveDuration(
      names.followMaxDelay,
      retry.followMaxDelay ?? defaults.followMaxDelay
    )
    if (Duration.isLessThan(followMaxDelay, baseDelay)) {
      return yield* SettingsCheck.invalid(
        names.followMaxDelay,
        `${names.followMaxDelay} must not be shorter than the base delay`
      )
    }
    if (retry.schedule !== undefined) {
      if (!Schedule.isSchedule(retry.schedule)) {
        return yield* SettingsCheck.invalid(names.retrySchedule, `${names.retrySchedule} must be an Effect Schedule`)
      }
      if (retry.maxRetries !== undefined || retry.maxDelay !== undefined) {
        return yield* SettingsCheck.invalid(
          names.retrySchedule,
          `${names.retrySchedule} comes without ${names.maxRetries} and ${names.retryMaxDelay}: they shape the default schedule only; bound your schedule instead (e.g. Schedule.intersect(schedule, Schedule.recurs(n)))`
        )
      }
      return { schedule: retry.schedule, baseDelay, maxRetryAfter, followMaxDelay }
    }
    const maxRetries = retry.maxRetries ?? defaults.maxRetries
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100) {
      return yield* SettingsCheck.invalid(names.maxRetries, `${names.maxRetries} must be an integer from 0 to 100`)
    }
    const maxDelay = yield* SettingsCheck.positiveDuration(names.retryMaxDelay, retry.maxDelay ?? defaults.maxDelay)
    if (Duration.isLessThan(maxDelay, baseDelay)) {
      return yield* SettingsCheck.invalid(
        names.retryMaxDelay,
        `${names.retryMaxDelay} must not be shorter than the base delay`
      )
    }
    return { schedule: Retry.backoff({ maxRetries, baseDelay, maxDelay }), baseDelay, maxRetryAfter, followMaxDelay }
  })

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
          resolve(options, wrapped === config ? SettingsCheck.fromVariables(env) : SettingsCheck.optionNames)
        )
    )
  )
