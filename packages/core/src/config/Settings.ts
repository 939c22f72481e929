/**
 * The client's settings (docs/configuration.md, "Settings"): their names as options and as
 * `BROKER_*` variables, their defaults, and every rule they must keep, checked in one pass that fills
 * in the defaults (`resolve`). Durations and the retry schedule are the line's own values (Effect 3 or
 * Effect 4 `Duration` and `Schedule`): `resolve` reads them through the few functions a line gives
 * it (`Line`). A broken rule is a `Problem` naming the setting as the user set it; each line's
 * `BrokerConfig` fails with its `ConfigError` saying it.
 *
 * @since 0.2.0
 */
import type * as BrokerError from "../error/BrokerError.js"
import * as Endpoint from "../protocol/Endpoint.js"

/**
 * The names of the settings as options of `BrokerConfig.layer`.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.optionNames.rateLimit, "rateLimit.limit")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const optionNames = {
  baseUrl: "baseUrl",
  apiKey: "apiKey",
  secretKey: "secretKey",
  apiKeyHeader: "apiKeyHeader",
  recvWindow: "recvWindow",
  requestTimeout: "requestTimeout",
  retrySchedule: "retry.schedule",
  maxRetries: "retry.maxRetries",
  retryBaseDelay: "retry.baseDelay",
  retryMaxDelay: "retry.maxDelay",
  maxRetryAfter: "retry.maxRetryAfter",
  followMaxDelay: "retry.followMaxDelay",
  rateLimit: "rateLimit.limit",
  rateLimitInterval: "rateLimit.interval",
  rateLimitMargin: "rateLimit.margin",
  rateLimitAdaptive: "rateLimit.adaptive",
  transferMaxWindow: "maxWindow.transfers",
  depositMaxWindow: "maxWindow.deposits",
  allowInsecureHttp: "allowInsecureHttp",
  maxResponseBytes: "maxResponseBytes",
  maxPagesPerMillisecond: "maxPagesPerMillisecond",
  onIncomplete: "onIncomplete"
} as const

/**
 * A setting, by its key in `optionNames` and `variables`.
 *
 * @example
 * ```ts
 * import type * as Settings from "@broker-history/core/config/Settings"
 *
 * const setting: Settings.Setting = "requestTimeout"
 * assert.strictEqual(setting, "requestTimeout")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Setting = keyof typeof optionNames

/**
 * The name of each setting in messages: an option's path, or an environment variable.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const names: Settings.Names = Settings.optionNames
 * assert.strictEqual(names.apiKey, "apiKey")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Names = Readonly<Record<Setting, string>>

/**
 * The environment variables each line's `BrokerConfig.layerConfig` reads (`BrokerConfig.env`). The
 * retry schedule is an option only.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.variables.apiKey, "BROKER_API_KEY")
 * assert.strictEqual(Settings.variables.retrySchedule, "retry.schedule")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const variables = {
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
} as const satisfies Names

/**
 * The names of settings read from `read` (the variables): the option, and the variable it came from
 * (`secretKey (from BROKER_SECRET_KEY)`); a setting no variable sets keeps its option name.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const names = Settings.fromVariables(Settings.variables)
 * assert.strictEqual(names.secretKey, "secretKey (from BROKER_SECRET_KEY)")
 * assert.strictEqual(names.retrySchedule, "retry.schedule")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromVariables = (read: Names): Names => {
  const names = { ...optionNames } as Record<Setting, string>
  for (const setting of Object.keys(optionNames) as Array<Setting>) {
    if (read[setting] !== optionNames[setting]) {
      names[setting] = `${optionNames[setting]} (from ${read[setting]})`
    }
  }
  return names
}

/**
 * The defaults of every optional setting, durations in milliseconds. Each line's
 * `BrokerConfig.defaults` gives the durations as its `Duration`s (`durationSettings`).
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.defaults.baseUrl, "https://api.mexc.com")
 * assert.strictEqual(Settings.defaults.requestTimeout, 10_000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaults = {
  baseUrl: "https://api.mexc.com",
  apiKeyHeader: Endpoint.apiKeyHeader,
  requestTimeout: 10_000,
  maxRetries: 5,
  baseDelay: 200,
  maxDelay: 10_000,
  maxRetryAfter: 60_000,
  followMaxDelay: 60_000,
  rateLimit: 20,
  rateLimitInterval: 1_000,
  rateLimitMargin: 25,
  rateLimitAdaptive: true,
  depositMaxWindow: Endpoint.depositDefaultWindowMillis,
  maxResponseBytes: 16 * 1024 * 1024,
  maxPagesPerMillisecond: 20,
  onIncomplete: "fail"
} as const

/**
 * The defaults that are durations.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.ok(Settings.durationSettings.includes("rateLimitMargin"))
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const durationSettings = [
  "requestTimeout",
  "baseDelay",
  "maxDelay",
  "maxRetryAfter",
  "followMaxDelay",
  "rateLimitInterval",
  "rateLimitMargin",
  "depositMaxWindow"
] as const

/**
 * The defaults with each duration as a line's duration `D`.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const inMillis: Settings.Defaults<number> = Settings.defaultsWith((millis) => millis)
 * assert.strictEqual(inMillis.rateLimitMargin, 25)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Defaults<D> = {
  readonly [K in keyof typeof defaults]: K extends typeof durationSettings[number] ? D : typeof defaults[K]
}

/**
 * The defaults with each duration made by `duration` from its milliseconds.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const inSeconds = Settings.defaultsWith((millis) => millis / 1000)
 * assert.strictEqual(inSeconds.requestTimeout, 10)
 * assert.strictEqual(inSeconds.maxRetries, 5)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const defaultsWith = <D>(duration: (millis: number) => D): Defaults<D> => {
  const out: Record<string, unknown> = { ...defaults }
  for (const setting of durationSettings) out[setting] = duration(defaults[setting])
  return out as Defaults<D>
}

/**
 * The largest `rateLimit.limit`: the budget remembers about that many requests, so it bounds its
 * memory.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.maxRateLimit, 10_000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const maxRateLimit = 10_000

/**
 * The range of `maxResponseBytes`: 1 KiB to 1 GiB.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.responseBytes.max, 1024 ** 3)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const responseBytes = { min: 1024, max: 1024 * 1024 * 1024 } as const

/**
 * The range of `maxPagesPerMillisecond`.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.deepStrictEqual(Settings.pagesPerMillisecond, { min: 1, max: 1000 })
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const pagesPerMillisecond = { min: 1, max: 1000 } as const

/**
 * Whether a URL's host is this machine: `localhost`, `[::1]` or `127.x.x.x`, where plain `http://`
 * is allowed.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.strictEqual(Settings.loopbackHost("127.0.0.1"), true)
 * assert.strictEqual(Settings.loopbackHost("example.com"), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const loopbackHost = (host: string): boolean =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host)

/**
 * A broken rule: the setting as messages name it, and the message, which names it too.
 *
 * @example
 * ```ts
 * import type * as Settings from "@broker-history/core/config/Settings"
 *
 * const problem: Settings.Problem = { setting: "recvWindow", message: "recvWindow must be an integer number of ms from 1 to 60000" }
 * assert.ok(problem.message.startsWith(problem.setting))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Problem {
  readonly setting: string
  readonly message: string
}

/**
 * What a line gives `resolve` of its own values: its durations (`duration`: an input as a duration,
 * `undefined` when it is none; `millis`: a duration's milliseconds, `Infinity` for an infinite one),
 * its schedules (`isSchedule`; `backoff`, the default schedule of its numbers), its defaults
 * (`defaultsWith` of its durations) and how its credentials are revealed to be checked (`reveal`;
 * they are kept as given, `Redacted` in both lines).
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * // Durations as plain milliseconds, and a schedule as the list of its waits.
 * const line: Settings.Line<number, ReadonlyArray<number>, string> = {
 *   duration: (input) => typeof input === "number" ? input : undefined,
 *   millis: (d) => d,
 *   isSchedule: (u): u is ReadonlyArray<number> => Array.isArray(u),
 *   backoff: ({ maxRetries, baseDelay }) => Array.from({ length: maxRetries }, (_, n) => baseDelay * 2 ** n),
 *   defaults: Settings.defaultsWith((millis) => millis),
 *   reveal: (secret) => secret
 * }
 * assert.strictEqual(line.backoff({ maxRetries: 2, baseDelay: 100, maxDelay: 1000 }).length, 2)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Line<D, S, K> {
  readonly duration: (input: unknown) => D | undefined
  readonly millis: (duration: D) => number
  readonly isSchedule: (u: unknown) => u is S
  readonly backoff: (options: { readonly maxRetries: number; readonly baseDelay: D; readonly maxDelay: D }) => S
  readonly defaults: Defaults<D>
  readonly reveal: (secret: K) => string
}

/**
 * The options `resolve` checks: each line's `BrokerConfig.Options`, its credentials of the line's
 * secret type (`K`: `Redacted`), its durations as the line's duration inputs (`I`) and its retry
 * schedule as its schedule (`S`).
 *
 * @example
 * ```ts
 * import type * as Settings from "@broker-history/core/config/Settings"
 *
 * const options: Settings.Options<number, never, string> = { apiKey: "key", secretKey: "secret", requestTimeout: 5000 }
 * assert.strictEqual(options.requestTimeout, 5000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Options<I, S, K> {
  /** Default `https://api.mexc.com`. Plain `http://` only for loopback or with `allowInsecureHttp`. */
  readonly baseUrl?: string | undefined
  readonly apiKey: K
  readonly secretKey: K
  /** Default `X-MEXC-APIKEY`. */
  readonly apiKeyHeader?: string | undefined
  /** Milliseconds, 1..60000. Default: not sent (the service uses 5000). */
  readonly recvWindow?: number | undefined
  /** Default 10 seconds. */
  readonly requestTimeout?: I | undefined
  /**
   * A `Schedule` deciding the retries (see `Settings.retry.schedule`), or the default schedule's
   * numbers: 5 retries, 200 ms base delay doubling up to 10 s (`retrySchedule`). `Retry-After` is
   * obeyed up to 1 minute; follow streams back off up to 1 minute. A `schedule` comes with neither
   * `maxRetries` nor `maxDelay`, which only shape the default.
   */
  readonly retry?: S | {
    readonly schedule?: S | undefined
    readonly maxRetries?: number | undefined
    readonly baseDelay?: I | undefined
    readonly maxDelay?: I | undefined
    readonly maxRetryAfter?: I | undefined
    readonly followMaxDelay?: I | undefined
  } | undefined
  /** Default 20 requests per 1 second (MEXC's stated account budget). */
  readonly rateLimit?: {
    readonly limit?: number | undefined
    readonly interval?: I | undefined
    /** Default 25 ms: added to the interval so jitter cannot push the service over its limit. */
    readonly margin?: I | undefined
    /** Default `true`: lower the rate after a 429/418 and grow it back to `limit` over time. */
    readonly adaptive?: boolean | undefined
  } | undefined
  /**
   * Defaults: transfers unlimited, deposits 10 days. An upper bound: a stream learns a narrower
   * maximum from the service's refusals (see `Settings.maxWindow`).
   */
  readonly maxWindow?: {
    readonly transfers?: I | undefined
    readonly deposits?: I | undefined
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
 * The settings `resolve` gives: every option checked, the defaults filled in, the base URL without a
 * trailing slash, the credentials as they were given, and the names messages use.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const line: Settings.Line<number, "backoff", string> = {
 *   duration: (input) => typeof input === "number" ? input : undefined,
 *   millis: (d) => d,
 *   isSchedule: (u): u is "backoff" => u === "backoff",
 *   backoff: () => "backoff",
 *   defaults: Settings.defaultsWith((millis) => millis),
 *   reveal: (secret) => secret
 * }
 * const resolved = Settings.resolve({ apiKey: "key", secretKey: "secret" }, Settings.optionNames, line)
 * assert.ok(resolved._tag === "Resolved")
 * const settings: Settings.Resolved<number, "backoff", string> = resolved.settings
 * assert.strictEqual(settings.retry.schedule, "backoff")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Resolved<D, S, K> {
  /** Base URL without a trailing slash, e.g. `https://api.mexc.com`. */
  readonly baseUrl: string
  readonly apiKey: K
  readonly secretKey: K
  /** Header that carries the API key (`X-MEXC-APIKEY`). */
  readonly apiKeyHeader: string
  /** `recvWindow` in ms sent with every request, or `undefined` to use the service default (5000). */
  readonly recvWindow: number | undefined
  /** Time allowed for one attempt (connect, answer and body). */
  readonly requestTimeout: D
  readonly retry: {
    /**
     * Decides whether and when a failed attempt is tried again; only retryable failures (5xx, 429,
     * transport, damaged body) reach it, and a 429/418's `Retry-After` replaces the wait it chose.
     */
    readonly schedule: S
    /** First wait of a follow stream's backoff (and of the default schedule). */
    readonly baseDelay: D
    /**
     * Longest `Retry-After` obeyed. A refusal that asks for a longer wait fails at once with
     * `RateLimited` (carrying the wait), except in a follow stream, which waits it out.
     */
    readonly maxRetryAfter: D
    /**
     * Cap of the backoff of a follow stream whose request failed after every retry with a transient
     * failure: it is tried again without limit, the waits doubling from `baseDelay` up to this.
     */
    readonly followMaxDelay: D
  }
  /** Request budget shared by every call and stream built from one layer. */
  readonly rateLimit: {
    readonly limit: number
    readonly interval: D
    /**
     * Added to `interval` when spacing requests. Requests started exactly `interval` apart can reach
     * the service closer together than that (network and scheduling jitter) and trip its own limiter.
     */
    readonly margin: D
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
  readonly maxWindow: { readonly transfers: D | undefined; readonly deposits: D }
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
  readonly names: Names
}

/** A broken rule, thrown inside `resolve` and caught at its end: the first one is the answer. */
class Broken {
  constructor(readonly problem: Problem) {}
}

const broken = (setting: string, message: string): never => {
  throw new Broken({ setting, message })
}

/**
 * Checks options and fills in the defaults: the `Resolved` settings, or the first rule broken, in
 * the order of the options (`baseUrl` first). `names` says how messages name each setting (the
 * option, or the variable it was read from: `fromVariables`).
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const line: Settings.Line<number, "backoff", string> = {
 *   duration: (input) => typeof input === "number" ? input : undefined,
 *   millis: (d) => d,
 *   isSchedule: (u): u is "backoff" => u === "backoff",
 *   backoff: () => "backoff",
 *   defaults: Settings.defaultsWith((millis) => millis),
 *   reveal: (secret) => secret
 * }
 * const credentials = { apiKey: "key", secretKey: "secret" }
 * assert.deepStrictEqual(Settings.resolve({ ...credentials, baseUrl: "http://example.com" }, Settings.optionNames, line), {
 *   _tag: "Invalid",
 *   problem: {
 *     setting: "baseUrl",
 *     message: "baseUrl must use https:// (example.com is not loopback): the API key would cross the network in clear text; set allowInsecureHttp to allow it anyway"
 *   }
 * })
 * const resolved = Settings.resolve({ ...credentials, baseUrl: "http://127.0.0.1:8080/" }, Settings.optionNames, line)
 * assert.ok(resolved._tag === "Resolved" && resolved.settings.baseUrl === "http://127.0.0.1:8080")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const resolve = <I, D, S, K>(
  options: Options<I, S, K>,
  names: Names,
  line: Line<D, S, K>
):
  | { readonly _tag: "Resolved"; readonly settings: Resolved<D, S, K> }
  | { readonly _tag: "Invalid"; readonly problem: Problem } =>
{
  try {
    return { _tag: "Resolved", settings: check(options, names, line) }
  } catch (e) {
    if (e instanceof Broken) return { _tag: "Invalid", problem: e.problem }
    throw e
  }
}

const wholeNumber = (setting: string, value: unknown, range: { readonly min: number; readonly max: number }) =>
  typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max
    ? broken(setting, `${setting} must be a whole number from ${range.min} to ${range.max}`)
    : value

// A key or secret pasted with a space or line break around it is never what the service issued.
const credential = (setting: string, value: string): string =>
  value.trim().length === 0
    ? broken(setting, `${setting} is empty`)
    : value.trim() !== value
    ? broken(setting, `${setting} has leading or trailing whitespace; remove it (it is not part of the key)`)
    : value

const check = <I, D, S, K>(options: Options<I, S, K>, names: Names, line: Line<D, S, K>): Resolved<D, S, K> => {
  const { defaults } = line
  const positiveDuration = (setting: string, input: unknown): D => {
    const d = line.duration(input)
    if (d === undefined) return broken(setting, `${setting} must be a positive, finite duration`)
    const millis = line.millis(d)
    return Number.isFinite(millis) && millis > 0 ? d : broken(setting, `${setting} must be a positive, finite duration`)
  }
  const baseUrlText = options.baseUrl ?? defaults.baseUrl
  let url: URL
  try {
    url = new URL(baseUrlText)
  } catch {
    return broken(names.baseUrl, `${names.baseUrl} is not a valid URL: ${JSON.stringify(baseUrlText)}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    broken(names.baseUrl, `${names.baseUrl} must be an http(s) URL, got ${url.protocol}`)
  }
  if (url.protocol === "http:" && !loopbackHost(url.hostname) && options.allowInsecureHttp !== true) {
    broken(
      names.baseUrl,
      `${names.baseUrl} must use https:// (${url.host} is not loopback): the API key would cross the network in clear text; set ${names.allowInsecureHttp} to allow it anyway`
    )
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    broken(names.baseUrl, `${names.baseUrl} must not carry a query, fragment or credentials`)
  }
  const baseUrl = url.toString().replace(/\/+$/, "")
  // The credentials are revealed to be checked, and kept as they were given.
  if (/[\r\n]/.test(credential(names.apiKey, line.reveal(options.apiKey)))) {
    broken(names.apiKey, `${names.apiKey} contains a line break`)
  }
  credential(names.secretKey, line.reveal(options.secretKey))
  const apiKeyHeader = options.apiKeyHeader ?? defaults.apiKeyHeader
  if (!/^[A-Za-z0-9-]+$/.test(apiKeyHeader)) {
    broken(names.apiKeyHeader, `${names.apiKeyHeader} must be a header name (letters, digits, -)`)
  }
  const recvWindow = options.recvWindow
  if (
    recvWindow !== undefined &&
    (!Number.isInteger(recvWindow) || recvWindow < Endpoint.recvWindow.min || recvWindow > Endpoint.recvWindow.max)
  ) {
    broken(names.recvWindow, `${names.recvWindow} must be an integer number of ms from 1 to 60000`)
  }
  const requestTimeout = positiveDuration(names.requestTimeout, options.requestTimeout ?? defaults.requestTimeout)
  const retry = checkRetry(options.retry, names, line, positiveDuration)
  const limit = options.rateLimit?.limit ?? defaults.rateLimit
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxRateLimit) {
    broken(
      names.rateLimit,
      `${names.rateLimit} must be a whole number of requests from 1 to ${maxRateLimit} (for more, shorten the interval)`
    )
  }
  const interval = positiveDuration(names.rateLimitInterval, options.rateLimit?.interval ?? defaults.rateLimitInterval)
  const margin = line.duration(options.rateLimit?.margin ?? defaults.rateLimitMargin)
  const marginMillis = margin === undefined ? Number.NaN : line.millis(margin)
  if (margin === undefined || !(Number.isFinite(marginMillis) && marginMillis >= 0)) {
    return broken(names.rateLimitMargin, `${names.rateLimitMargin} must be a finite duration (0 allowed)`)
  }
  const adaptive = options.rateLimit?.adaptive ?? defaults.rateLimitAdaptive
  if (typeof adaptive !== "boolean") {
    broken(names.rateLimitAdaptive, `${names.rateLimitAdaptive} must be true or false`)
  }
  const transfers = options.maxWindow?.transfers === undefined
    ? undefined
    : positiveDuration(names.transferMaxWindow, options.maxWindow.transfers)
  const deposits = positiveDuration(names.depositMaxWindow, options.maxWindow?.deposits ?? defaults.depositMaxWindow)
  const maxResponseBytes = wholeNumber(
    names.maxResponseBytes,
    options.maxResponseBytes ?? defaults.maxResponseBytes,
    responseBytes
  )
  const maxPagesPerMillisecond = wholeNumber(
    names.maxPagesPerMillisecond,
    options.maxPagesPerMillisecond ?? defaults.maxPagesPerMillisecond,
    pagesPerMillisecond
  )
  const onIncomplete = options.onIncomplete ?? defaults.onIncomplete
  if (onIncomplete !== "fail" && onIncomplete !== "warn") {
    broken(names.onIncomplete, `${names.onIncomplete} must be "fail" or "warn"`)
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
}

const checkRetry = <I, D, S, K>(
  option: Options<I, S, K>["retry"],
  names: Names,
  line: Line<D, S, K>,
  positiveDuration: (setting: string, input: unknown) => D
): Resolved<D, S, K>["retry"] => {
  const { defaults } = line
  const retry = line.isSchedule(option) ? { schedule: option } : option ?? {}
  const baseDelay = positiveDuration(names.retryBaseDelay, retry.baseDelay ?? defaults.baseDelay)
  const maxRetryAfter = positiveDuration(names.maxRetryAfter, retry.maxRetryAfter ?? defaults.maxRetryAfter)
  const followMaxDelay = positiveDuration(names.followMaxDelay, retry.followMaxDelay ?? defaults.followMaxDelay)
  if (line.millis(followMaxDelay) < line.millis(baseDelay)) {
    broken(names.followMaxDelay, `${names.followMaxDelay} must not be shorter than the base delay`)
  }
  if (retry.schedule !== undefined) {
    if (!line.isSchedule(retry.schedule)) {
      broken(names.retrySchedule, `${names.retrySchedule} must be an Effect Schedule`)
    }
    if (retry.maxRetries !== undefined || retry.maxDelay !== undefined) {
      broken(
        names.retrySchedule,
        `${names.retrySchedule} comes without ${names.maxRetries} and ${names.retryMaxDelay}: they shape the default schedule only; bound your schedule instead (e.g. Schedule.intersect(schedule, Schedule.recurs(n)))`
      )
    }
    return { schedule: retry.schedule, baseDelay, maxRetryAfter, followMaxDelay }
  }
  const maxRetries = retry.maxRetries ?? defaults.maxRetries
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100) {
    broken(names.maxRetries, `${names.maxRetries} must be an integer from 0 to 100`)
  }
  const maxDelay = positiveDuration(names.retryMaxDelay, retry.maxDelay ?? defaults.maxDelay)
  if (line.millis(maxDelay) < line.millis(baseDelay)) {
    broken(names.retryMaxDelay, `${names.retryMaxDelay} must not be shorter than the base delay`)
  }
  return { schedule: line.backoff({ maxRetries, baseDelay, maxDelay }), baseDelay, maxRetryAfter, followMaxDelay }
}

/**
 * The settings each failure's message tells the user to check or raise, by its tag: the failure
 * carries their names as the layer was configured (`namesFor`).
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * assert.deepStrictEqual(Settings.namedBy.TimestampRejected, ["recvWindow"])
 * assert.strictEqual(Settings.namedBy.ApiError, undefined)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const namedBy: { readonly [Tag in BrokerError.BrokerError["_tag"]]?: ReadonlyArray<Setting> } = {
  AuthenticationError: ["apiKey", "secretKey"],
  TimestampRejected: ["recvWindow"],
  RateLimited: ["maxRetryAfter", "rateLimit"],
  TransportError: ["baseUrl", "requestTimeout"],
  ResponseDecodeError: ["baseUrl", "maxResponseBytes"],
  IncompleteHistory: ["maxPagesPerMillisecond", "onIncomplete"]
}

/**
 * The names a failure of `tag` carries for its message (`namedBy`), as `names` gives them;
 * `undefined` for a failure whose message names no setting.
 *
 * @example
 * ```ts
 * import * as Settings from "@broker-history/core/config/Settings"
 *
 * const names = Settings.fromVariables(Settings.variables)
 * assert.deepStrictEqual(Settings.namesFor("TimestampRejected", names), { recvWindow: "recvWindow (from BROKER_RECV_WINDOW)" })
 * assert.strictEqual(Settings.namesFor("ServerError", names), undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const namesFor = (
  tag: BrokerError.BrokerError["_tag"],
  names: Names
): { readonly [setting: string]: string } | undefined => {
  const settings = namedBy[tag]
  return settings === undefined ? undefined : Object.fromEntries(settings.map((setting) => [setting, names[setting]]))
}
