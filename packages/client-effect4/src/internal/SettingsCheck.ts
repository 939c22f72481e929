/**
 * The checks `BrokerConfig.resolve` makes of the client's settings, each a `ConfigError` naming the
 * setting, and the names settings go by in those errors. Pure.
 *
 * @internal
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

/** The names of the settings as options of `BrokerConfig.layer`. */
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

/** A setting, by its key in `optionNames` and `BrokerConfig.env`. */
export type Setting = keyof typeof optionNames

/** The name of each setting in error messages: an option's path, or an environment variable. */
export type Names = Record<Setting, string>

/**
 * The names of settings read from `variables`: the option, and the variable it came from
 * (`secretKey (from BROKER_SECRET_KEY)`); a setting no variable sets keeps its option name.
 */
export const fromVariables = (variables: Names): Names => {
  const names = { ...optionNames } as Record<Setting, string>
  for (const setting of Object.keys(optionNames) as Array<Setting>) {
    if (variables[setting] !== optionNames[setting]) {
      names[setting] = `${optionNames[setting]} (from ${variables[setting]})`
    }
  }
  return names
}

/** The largest `rateLimit.limit`: the budget remembers about that many requests, so it bounds its memory. */
export const maxRateLimit = 10_000

/** The range of `maxResponseBytes`: 1 KiB to 1 GiB. */
export const responseBytes = { min: 1024, max: 1024 * 1024 * 1024 } as const

/** The range of `maxPagesPerMillisecond`. */
export const pagesPerMillisecond = { min: 1, max: 1000 } as const

export const loopbackHost = (host: string): boolean =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host)

/**
 * A setting refused: a `ConfigError` whose message is `message`, which names the setting (one line;
 * the schema issue carries no path, since the message names the option and its variable itself).
 */
export const configError = (message: string): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

export const invalid = (_setting: string, message: string): Result.Result<never, Config.ConfigError> =>
  Result.fail(configError(message))

export const wholeNumber = (setting: string, value: unknown, range: { readonly min: number; readonly max: number }) =>
  typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max
    ? invalid(setting, `${setting} must be a whole number from ${range.min} to ${range.max}`)
    : Result.succeed(value)

// A key or secret pasted with a space or line break around it is never what the service issued.
export const credential = (setting: string, value: string) =>
  value.trim().length === 0
    ? invalid(setting, `${setting} is empty`)
    : value.trim() !== value
    ? invalid(setting, `${setting} has leading or trailing whitespace; remove it (it is not part of the key)`)
    : Result.succeed(value)

/** A duration input as a duration: `undefined` when it is not one (Effect 4 reads negatives as negative). */
export const durationOf = (input: unknown): Duration.Duration | undefined =>
  Option.getOrUndefined(Duration.fromInput(input as Duration.Input))

export const positiveDuration = (setting: string, input: Duration.Input) => {
  const d = durationOf(input)
  return d === undefined || !Duration.isFinite(d) || !(Duration.toMillis(d) > 0)
    ? invalid(setting, `${setting} must be a positive, finite duration`)
    : Result.succeed(d)
}
