/**
 * The checks of the client's options: every setting validated and its default filled in, or a
 * `ConfigError` naming the setting. Pure, so that options given in code (`BrokerConfig.layer`) and
 * options read from the environment (`BrokerConfig.layerConfig`) go through the same checks.
 *
 * @internal
 */
import { Endpoint } from "@broker-history/domain"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import type { defaults as Defaults, env, Options, Settings } from "../BrokerConfig.js"

/** The name of each setting in error messages: an option's path, or an environment variable. */
export type Names = Record<keyof typeof env, string>

/** The names of the settings as options of `BrokerConfig.layer`. */
export const optionNames: Names = {
  baseUrl: "baseUrl",
  apiKey: "apiKey",
  secretKey: "secretKey",
  apiKeyHeader: "apiKeyHeader",
  recvWindow: "recvWindow",
  requestTimeout: "requestTimeout",
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
}

/** The largest `rateLimit.limit`: the budget remembers about that many requests, so it bounds its memory. */
export const maxRateLimit = 10_000

/** The range of `maxResponseBytes`: 1 KiB to 1 GiB. */
export const responseBytes = { min: 1024, max: 1024 * 1024 * 1024 } as const

/** The range of `maxPagesPerMillisecond`. */
export const pagesPerMillisecond = { min: 1, max: 1000 } as const

const loopbackHost = (host: string): boolean =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host)

const invalid = (setting: string, message: string) => Either.left(ConfigError.InvalidData([setting], message))

const wholeNumber = (setting: string, value: unknown, range: { readonly min: number; readonly max: number }) =>
  typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max
    ? invalid(setting, `${setting} must be a whole number from ${range.min} to ${range.max}`)
    : Either.right(value)

// A key or secret pasted with a space or line break around it is never what the service issued.
const credential = (setting: string, value: string) =>
  value.trim().length === 0
    ? invalid(setting, `${setting} is empty`)
    : value.trim() !== value
    ? invalid(setting, `${setting} has leading or trailing whitespace; remove it (it is not part of the key)`)
    : Either.right(value)

const positiveDuration = (setting: string, input: Duration.DurationInput) => {
  const d = Duration.decodeUnknown(input)
  return d._tag === "None" || !Duration.isFinite(d.value) || Duration.toMillis(d.value) <= 0
    ? invalid(setting, `${setting} must be a positive, finite duration`)
    : Either.right(d.value)
}

/** Checks `options` and fills in `defaults`; errors name the setting as `names` says. */
export const resolve = (
  options: Options,
  names: Names,
  defaults: typeof Defaults
): Either.Either<Settings, ConfigError.ConfigError> =>
  Either.gen(function*() {
    const baseUrlText = options.baseUrl ?? defaults.baseUrl
    let url: URL
    try {
      url = new URL(baseUrlText)
    } catch {
      return yield* invalid(names.baseUrl, `${names.baseUrl} is not a valid URL: ${JSON.stringify(baseUrlText)}`)
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return yield* invalid(names.baseUrl, `${names.baseUrl} must be an http(s) URL, got ${url.protocol}`)
    }
    if (url.protocol === "http:" && !loopbackHost(url.hostname) && options.allowInsecureHttp !== true) {
      return yield* invalid(
        names.baseUrl,
        `${names.baseUrl} must use https:// (${url.host} is not loopback): the API key would cross the network in clear text; set ${names.allowInsecureHttp} to allow it anyway`
      )
    }
    if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
      return yield* invalid(names.baseUrl, `${names.baseUrl} must not carry a query, fragment or credentials`)
    }
    const baseUrl = url.toString().replace(/\/+$/, "")
    const apiKey = yield* credential(names.apiKey, Redacted.value(options.apiKey))
    if (/[\r\n]/.test(apiKey)) return yield* invalid(names.apiKey, `${names.apiKey} contains a line break`)
    yield* credential(names.secretKey, Redacted.value(options.secretKey))
    const apiKeyHeader = options.apiKeyHeader ?? defaults.apiKeyHeader
    if (!/^[A-Za-z0-9-]+$/.test(apiKeyHeader)) {
      return yield* invalid(names.apiKeyHeader, `${names.apiKeyHeader} must be a header name (letters, digits, -)`)
    }
    const recvWindow = options.recvWindow
    if (
      recvWindow !== undefined &&
      (!Number.isInteger(recvWindow) || recvWindow < Endpoint.recvWindow.min || recvWindow > Endpoint.recvWindow.max)
    ) {
      return yield* invalid(names.recvWindow, `${names.recvWindow} must be an integer number of ms from 1 to 60000`)
    }
    const requestTimeout = yield* positiveDuration(
      names.requestTimeout,
      options.requestTimeout ?? defaults.requestTimeout
    )
    const maxRetries = options.retry?.maxRetries ?? defaults.maxRetries
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100) {
      return yield* invalid(names.maxRetries, `${names.maxRetries} must be an integer from 0 to 100`)
    }
    const baseDelay = yield* positiveDuration(names.retryBaseDelay, options.retry?.baseDelay ?? defaults.baseDelay)
    const maxDelay = yield* positiveDuration(names.retryMaxDelay, options.retry?.maxDelay ?? defaults.maxDelay)
    if (Duration.lessThan(maxDelay, baseDelay)) {
      return yield* invalid(names.retryMaxDelay, `${names.retryMaxDelay} must not be shorter than the base delay`)
    }
    const maxRetryAfter = yield* positiveDuration(
      names.maxRetryAfter,
      options.retry?.maxRetryAfter ?? defaults.maxRetryAfter
    )
    const followMaxDelay = yield* positiveDuration(
      names.followMaxDelay,
      options.retry?.followMaxDelay ?? defaults.followMaxDelay
    )
    if (Duration.lessThan(followMaxDelay, baseDelay)) {
      return yield* invalid(names.followMaxDelay, `${names.followMaxDelay} must not be shorter than the base delay`)
    }
    const limit = options.rateLimit?.limit ?? defaults.rateLimit
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxRateLimit) {
      return yield* invalid(
        names.rateLimit,
        `${names.rateLimit} must be a whole number of requests from 1 to ${maxRateLimit} (for more, shorten the interval)`
      )
    }
    const interval = yield* positiveDuration(
      names.rateLimitInterval,
      options.rateLimit?.interval ?? defaults.rateLimitInterval
    )
    const margin = Duration.decodeUnknown(options.rateLimit?.margin ?? defaults.rateLimitMargin)
    if (margin._tag === "None" || !Duration.isFinite(margin.value)) {
      return yield* invalid(names.rateLimitMargin, `${names.rateLimitMargin} must be a finite duration (0 allowed)`)
    }
    const adaptive = options.rateLimit?.adaptive ?? defaults.rateLimitAdaptive
    if (typeof adaptive !== "boolean") {
      return yield* invalid(names.rateLimitAdaptive, `${names.rateLimitAdaptive} must be true or false`)
    }
    const transfers = options.maxWindow?.transfers === undefined
      ? undefined
      : yield* positiveDuration(names.transferMaxWindow, options.maxWindow.transfers)
    const deposits = yield* positiveDuration(
      names.depositMaxWindow,
      options.maxWindow?.deposits ?? defaults.depositMaxWindow
    )
    const maxResponseBytes = yield* wholeNumber(
      names.maxResponseBytes,
      options.maxResponseBytes ?? defaults.maxResponseBytes,
      responseBytes
    )
    const maxPagesPerMillisecond = yield* wholeNumber(
      names.maxPagesPerMillisecond,
      options.maxPagesPerMillisecond ?? defaults.maxPagesPerMillisecond,
      pagesPerMillisecond
    )
    const onIncomplete = options.onIncomplete ?? defaults.onIncomplete
    if (onIncomplete !== "fail" && onIncomplete !== "warn") {
      return yield* invalid(names.onIncomplete, `${names.onIncomplete} must be "fail" or "warn"`)
    }
    return {
      baseUrl,
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      apiKeyHeader,
      recvWindow,
      requestTimeout,
      retry: { maxRetries, baseDelay, maxDelay, maxRetryAfter, followMaxDelay },
      rateLimit: { limit, interval, margin: margin.value, adaptive },
      maxWindow: { transfers, deposits },
      maxResponseBytes,
      maxPagesPerMillisecond,
      onIncomplete
    }
  })
