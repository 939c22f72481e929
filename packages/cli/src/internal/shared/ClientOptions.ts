/**
 * The client's settings on the command line: a flag for the common ones, every `BROKER_*`
 * variable for all of them (flags win). Both are read by the client's own `BrokerConfig.config`
 * and checked by `BrokerConfig.resolve`, so defaults and rules are the library's. Also here: where
 * to export the client's spans and metrics (`--otlp-endpoint`, `OTEL_EXPORTER_OTLP_ENDPOINT`).
 *
 * @internal
 */
import type { BrokerHistory } from "@broker-history/client"
import { BrokerConfig, HttpProxy } from "@broker-history/client"
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ClientSettings from "./ClientSettings.js"

const d = BrokerConfig.defaults

/** Each client flag with the `BROKER_*` variable it stands for, that variable's default and its help text. */
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
  },
  {
    flag: "on-incomplete",
    env: BrokerConfig.env.onIncomplete,
    fallback: d.onIncomplete,
    text: "when the service does not serve every record of a crowded millisecond: fail (exit 5), or warn " +
      "(a warning line each, the records served kept, exit 5 at the end)"
  },
  {
    flag: "proxy",
    env: HttpProxy.env.proxy,
    fallback: "environment",
    text: "HTTP proxy: a URL (http://host:port; with credentials http://user:password@host:port, " +
      "better in the variable), environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) or none"
  },
  {
    flag: "otlp-endpoint",
    env: "OTEL_EXPORTER_OTLP_ENDPOINT",
    fallback: "off",
    text: "OpenTelemetry collector base URL (OTLP/HTTP, e.g. http://127.0.0.1:4318): the client's spans and " +
      "metrics are exported there, as service broker-history"
  }
] as const

/** The client variables that have no flag, with their defaults as `--help` shows them. */
export const variablesOnly: ReadonlyArray<{ readonly env: string; readonly fallback: string }> = [
  { env: BrokerConfig.env.apiKeyHeader, fallback: d.apiKeyHeader },
  { env: BrokerConfig.env.retryBaseDelay, fallback: "200 millis" },
  { env: BrokerConfig.env.retryMaxDelay, fallback: "10 seconds" },
  { env: BrokerConfig.env.maxRetryAfter, fallback: "1 minute" },
  { env: BrokerConfig.env.followMaxDelay, fallback: "1 minute" },
  { env: BrokerConfig.env.transferMaxWindow, fallback: "unlimited" },
  { env: BrokerConfig.env.depositMaxWindow, fallback: "10 days" },
  { env: BrokerConfig.env.allowInsecureHttp, fallback: "false (http:// only to loopback)" },
  { env: BrokerConfig.env.maxResponseBytes, fallback: String(d.maxResponseBytes) },
  { env: BrokerConfig.env.maxPagesPerMillisecond, fallback: String(d.maxPagesPerMillisecond) }
]

/**
 * The paragraph of `--help` that names every client variable, those without a flag with their defaults,
 * and the duration syntax.
 */
export const variablesHelp: string = "Client settings also read from the environment (flags win): " +
  flags.map((f) => f.env).join(", ") + "; and without a flag: " +
  variablesOnly.map((v) => `${v.env} (default ${v.fallback})`).join(", ") +
  ". Durations, as flags or variables: 500ms, 2s, 5m, 1h, 1d or Effect duration text such as \"10 seconds\"."

/** The client flag values given on the command line, by flag name (absent: the variable is read). */
export type Values = { readonly [K in (typeof flags)[number]["flag"]]?: string | undefined }

/**
 * The `@effect/cli` options of the client settings, one optional text flag each (`--base-url`,
 * `--api-key`, `--rate-limit`, …).
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

/**
 * The configuration provider of a command: the given flags under their variable names, then `env`; a
 * duration, from a flag or a variable, takes the command line's syntax (`2s`, `500ms`, `"10 seconds"`),
 * and one that is not a duration is an `InvalidData` error naming the variable.
 */
export const provider = (
  values: Values,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<ConfigProvider.ConfigProvider, ConfigError.ConfigError> =>
  Either.map(
    ClientSettings.variables(flags.map((f) => [f.env, values[f.flag]] as const), env),
    (map) => ConfigProvider.fromMap(map)
  )

/**
 * The client configuration from flags and environment, checked up front: a `ConfigError` names the
 * variable (and its flag) that is missing or wrong.
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
 * Where to export spans and metrics: `--otlp-endpoint` or `OTEL_EXPORTER_OTLP_ENDPOINT` (the OTLP/HTTP
 * collector's base URL, without a trailing slash), or `None` (export off). Anything but an
 * `http://` or `https://` URL is an `InvalidData` error naming the variable.
 */
export const otlpEndpoint: Config.Config<Option.Option<string>> = Config.option(
  Config.string("OTEL_EXPORTER_OTLP_ENDPOINT")
).pipe(Config.mapOrFail(Option.match({
  onNone: () => Either.right(Option.none()),
  onSome: (text) =>
    Either.mapBoth(ClientSettings.otlpEndpoint(text), {
      onLeft: (message) => ConfigError.InvalidData(["OTEL_EXPORTER_OTLP_ENDPOINT"], message),
      onRight: Option.some
    })
})))

/**
 * The OpenTelemetry SDK exporting to `otlpEndpoint` when it is set (`Telemetry.layer`, loaded only
 * then), otherwise nothing.
 */
const telemetryLayer = (configProvider: ConfigProvider.ConfigProvider): Layer.Layer<never, ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.flatMap(
    Effect.withConfigProvider(otlpEndpoint, configProvider),
    Option.match({
      onNone: () => Effect.succeed(Layer.empty),
      onSome: (endpoint) =>
        Effect.map(Effect.promise(() => import("./Telemetry.js")), (Telemetry) => Telemetry.layer(endpoint))
    })
  ))

/**
 * The client over Node's undici transport, configured from flags and environment: one layer, so every
 * stream of a command shares its rate limiter. With `--otlp-endpoint` or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * it also installs the OpenTelemetry SDK (`Telemetry.layer`), flushed when the layer closes.
 * Its requests go through the proxy `--proxy` /
 * `BROKER_PROXY` names, by default the one `HTTPS_PROXY` / `HTTP_PROXY` in `env` name (`NO_PROXY` honoured).
 */
export const layer = (
  values: Values,
  env: Readonly<Record<string, string | undefined>>
): Layer.Layer<BrokerHistory.BrokerHistory, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Either.match(provider(values, env), {
      onLeft: Effect.fail,
      onRight: (configProvider) =>
        Effect.zipWith(
          Effect.withConfigProvider(HttpProxy.config, configProvider),
          // Loaded when a command talks to the service, not for --help or the local commands.
          Effect.promise(() => import("@broker-history/client/NodeTransport")),
          (proxy, NodeTransport) => NodeTransport.layerProxy(proxy, env)
        ).pipe(Effect.map(Layer.merge(telemetryLayer(configProvider))))
    })
  ).pipe(Layer.provide(configLayer(values, env)))
