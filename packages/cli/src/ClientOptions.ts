/**
 * The client's settings on the command line: a flag for the common ones, every `BROKER_*`
 * variable for all of them (flags win). Both are read by the client's own `BrokerConfig.config`
 * and checked by `BrokerConfig.resolve`, so defaults and rules are the library's.
 *
 * @since 0.1.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import * as Options from "@effect/cli/Options"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TimeText from "./TimeText.js"

const d = BrokerConfig.defaults

/**
 * Each flag with the variable it stands for and that variable's default.
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * ClientOptions.flags.find((f) => f.flag === "base-url")?.env // "BROKER_BASE_URL"
 */
export const flags = [
  { flag: "base-url", env: BrokerConfig.env.baseUrl, fallback: d.baseUrl, text: "service base URL" },
  {
    flag: "api-key",
    env: BrokerConfig.env.apiKey,
    fallback: "required",
    text: "API key (prefer the variable: flags show in the process list)"
  },
  {
    flag: "secret-key",
    env: BrokerConfig.env.secretKey,
    fallback: "required",
    text: "API secret key (prefer the variable)"
  },
  {
    flag: "rate-limit",
    env: BrokerConfig.env.rateLimit,
    fallback: String(d.rateLimit),
    text: "requests per interval, shared by every stream of the command"
  },
  {
    flag: "rate-limit-interval",
    env: BrokerConfig.env.rateLimitInterval,
    fallback: "1 second",
    text: "the rate-limit interval"
  },
  {
    flag: "request-timeout",
    env: BrokerConfig.env.requestTimeout,
    fallback: "10 seconds",
    text: "time allowed for one attempt"
  },
  {
    flag: "max-retries",
    env: BrokerConfig.env.maxRetries,
    fallback: String(d.maxRetries),
    text: "retries of a failed request (5xx, 429, network)"
  },
  {
    flag: "recv-window",
    env: BrokerConfig.env.recvWindow,
    fallback: "not sent (service uses 5000)",
    text: "receive window in ms, 1..60000"
  }
] as const

/**
 * The variables without a flag, with their defaults (shown in `--help`).
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * ClientOptions.variablesOnly.length > 0 // true
 */
export const variablesOnly: ReadonlyArray<{ readonly env: string; readonly fallback: string }> = [
  { env: BrokerConfig.env.apiKeyHeader, fallback: d.apiKeyHeader },
  { env: BrokerConfig.env.retryBaseDelay, fallback: "200 millis" },
  { env: BrokerConfig.env.retryMaxDelay, fallback: "10 seconds" },
  { env: BrokerConfig.env.transferMaxWindow, fallback: "unlimited" },
  { env: BrokerConfig.env.depositMaxWindow, fallback: "10 days" },
  { env: BrokerConfig.env.allowInsecureHttp, fallback: "false (http:// only to loopback)" }
]

/**
 * The paragraph of `--help` that lists the variables without a flag.
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * ClientOptions.variablesHelp.includes("BROKER_API_KEY_HEADER") // true
 */
export const variablesHelp: string = "Client settings also read from the environment (flags win): " +
  flags.map((f) => f.env).join(", ") + "; and without a flag: " +
  variablesOnly.map((v) => `${v.env} (default ${v.fallback})`).join(", ") +
  ". Durations, as flags or variables: 500ms, 2s, 5m, 1h, 1d or Effect duration text such as \"10 seconds\"."

/**
 * The flag values given (absent: read the variable).
 *
 * @example
 * import type { ClientOptions } from "@broker-history/cli"
 * const none: ClientOptions.Values = {}
 */
export type Values = { readonly [K in (typeof flags)[number]["flag"]]?: string | undefined }

/**
 * The `@effect/cli` options of the client settings.
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const command = Command.make("pages", { client: ClientOptions.options })
 */
export const options: Options.Options<Values> = Options.all(
  Object.fromEntries(flags.map((f) => [
    f.flag,
    Options.text(f.flag).pipe(
      Options.withDescription(`${f.text} (env ${f.env}, default ${f.fallback})`),
      Options.optional,
      Options.map(Option.getOrUndefined)
    )
  ]))
) as unknown as Options.Options<Values>

/** The client's duration variables: read with the command line's one duration syntax (`TimeText`). */
const durationVariables: ReadonlySet<string> = new Set([
  BrokerConfig.env.requestTimeout,
  BrokerConfig.env.rateLimitInterval,
  BrokerConfig.env.rateLimitMargin,
  BrokerConfig.env.retryBaseDelay,
  BrokerConfig.env.retryMaxDelay,
  BrokerConfig.env.transferMaxWindow,
  BrokerConfig.env.depositMaxWindow
])

/**
 * The configuration provider of a command: the given flags under their variable names, then the
 * process environment. Durations, from a flag or a variable, take the command line's syntax (`2s`,
 * `500ms`, `"10 seconds"`); one that is not a duration is an `InvalidData` error naming the variable.
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * const provider = ClientOptions.provider({ "base-url": "http://127.0.0.1:8080" }, process.env)
 */
export const provider = (
  values: Values,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<ConfigProvider.ConfigProvider, ConfigError.ConfigError> => {
  const map = new Map<string, string>()
  for (const f of flags) {
    const value = values[f.flag]
    if (value !== undefined) map.set(f.env, value)
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== "" && !map.has(name)) map.set(name, value)
  }
  for (const name of durationVariables) {
    const text = map.get(name)
    if (text === undefined) continue
    const duration = TimeText.duration(text)
    if (Either.isLeft(duration)) return Either.left(ConfigError.InvalidData([name], duration.left))
    map.set(name, TimeText.durationText(duration.right))
  }
  return Either.right(ConfigProvider.fromMap(map))
}

/**
 * The client configuration from flags and environment, checked up front (a `ConfigError` naming
 * the variable).
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * const ConfigLive = ClientOptions.configLayer({}, process.env)
 */
export const configLayer = (
  values: Values,
  env: Readonly<Record<string, string | undefined>>
): Layer.Layer<BrokerConfig.BrokerConfig, ConfigError.ConfigError> =>
  Layer.effect(
    BrokerConfig.BrokerConfig,
    Either.match(provider(values, env), {
      onLeft: Effect.fail,
      onRight: (configProvider) =>
        Effect.flatMap(
          Effect.withConfigProvider(BrokerConfig.config, configProvider),
          (o) =>
            Either.match(BrokerConfig.resolve(o, BrokerConfig.env), { onLeft: Effect.fail, onRight: Effect.succeed })
        )
    })
  )

/**
 * The client over Node's undici transport: one layer, so every stream of a command shares its
 * rate limiter.
 *
 * @example
 * import { ClientOptions } from "@broker-history/cli"
 * const HistoryLive = ClientOptions.layer({ "rate-limit": "10" }, process.env)
 */
export const layer = (
  values: Values,
  env: Readonly<Record<string, string | undefined>>
): Layer.Layer<BrokerHistory.BrokerHistory, ConfigError.ConfigError> =>
  BrokerHistory.layerUndici.pipe(Layer.provide(configLayer(values, env)))
