// The client's settings on the command line: a flag for the common ones, a variable for every one,
// flags winning; read by the client's own configuration, with a missing or wrong one named.
import { BrokerConfig } from "@broker-history/client"
import { Command } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Either, Exit, Option } from "effect"
import * as ClientOptions from "../../../src/internal/shared/ClientOptions.js"
import * as ExitCode from "../../../src/internal/shared/ExitCode.js"

const keys = { BROKER_API_KEY: "key", BROKER_SECRET_KEY: "secret" }

describe("ClientOptions", () => {
  it("each flag has its BROKER_* (or OTEL_*) variable; the variables without a flag are listed in --help", () => {
    const baseUrl = ClientOptions.flags.find((f) => f.flag === "base-url")
    expect([baseUrl?.env, baseUrl?.fallback]).toEqual(["BROKER_BASE_URL", "https://api.mexc.com"])
    expect(ClientOptions.flags.every((f) => f.env.startsWith("BROKER_") || f.env.startsWith("OTEL_"))).toBe(true)
    expect(ClientOptions.variablesOnly[0]).toEqual({ env: "BROKER_API_KEY_HEADER", fallback: "X-MEXC-APIKEY" })
    const withFlag = new Set<string>(ClientOptions.flags.map((f) => f.env))
    expect(ClientOptions.variablesOnly.every((v) => !withFlag.has(v.env))).toBe(true)
    expect(ClientOptions.variablesHelp).toMatch(
      /^Client settings also read from the environment \(flags win\): BROKER_BASE_URL/
    )
    expect(ClientOptions.variablesHelp).toContain("BROKER_RETRY_MAX_DELAY (default 10 seconds)")
  })

  it("a flag wins over its variable; a duration in the command line's syntax; a bad value names its variable", () => {
    const env = { ...keys, BROKER_RATE_LIMIT: "50" }
    const provider = Either.getOrThrow(ClientOptions.provider({ "rate-limit": "5", "request-timeout": "2s" }, env))
    const options = Effect.runSync(Effect.withConfigProvider(BrokerConfig.config, provider))
    expect(options.rateLimit?.limit).toBe(5)
    expect(Duration.toMillis(Duration.decode(options.requestTimeout ?? 0))).toBe(2000)
    const soon = ClientOptions.provider({}, { ...env, BROKER_RETRY_MAX_DELAY: "soon" })
    expect(Either.isLeft(soon) && String(soon.left)).toContain("BROKER_RETRY_MAX_DELAY")
  })

  it("the configuration layer: defaults, the flags' values, and a missing key named with its flag", () => {
    const baseUrl = Effect.map(BrokerConfig.BrokerConfig, (config) => config.baseUrl)
    expect(Effect.runSync(Effect.provide(baseUrl, ClientOptions.configLayer({}, keys)))).toBe("https://api.mexc.com")
    const limit = Effect.map(BrokerConfig.BrokerConfig, (config) => config.rateLimit.limit)
    const values = { "api-key": "key", "secret-key": "secret", "rate-limit": "5" }
    expect(Effect.runSync(Effect.provide(limit, ClientOptions.configLayer(values, {})))).toBe(5)
    const missing = Effect.runSyncExit(Effect.provide(baseUrl, ClientOptions.configLayer({}, {})))
    expect(Exit.isFailure(missing) && ExitCode.describe(Cause.squash(missing.cause))).toEqual({
      kind: "authentication",
      message: "BROKER_API_KEY (or --api-key) is not set: set it to your API key (see --help)"
    })
  })

  it("the collector's URL: none by default, the variable's, the flag's over it; a URL without a scheme refused", () => {
    const endpoint = (values: ClientOptions.Values, env: Record<string, string>) =>
      Effect.withConfigProvider(ClientOptions.otlpEndpoint, Either.getOrThrow(ClientOptions.provider(values, env)))
    expect(Effect.runSync(endpoint({}, {}))).toEqual(Option.none())
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }
    expect(Effect.runSync(endpoint({}, env))).toEqual(Option.some("http://collector:4318"))
    expect(Effect.runSync(endpoint({ "otlp-endpoint": "http://127.0.0.1:4318" }, env)))
      .toEqual(Option.some("http://127.0.0.1:4318"))
    expect(Exit.isFailure(Effect.runSyncExit(endpoint({ "otlp-endpoint": "collector:4318" }, {})))).toBe(true)
  })

  it.effect("the options parse each flag into the values the configuration reads", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const whereTo = Command.make("where-to", { client: ClientOptions.options }, ({ client }) =>
        Effect.map(BrokerConfig.BrokerConfig, (config) => {
          seen.push(config.baseUrl)
        }).pipe(Effect.provide(ClientOptions.configLayer(client, keys))))
      const run = Command.run(whereTo, { name: "where-to", version: "1.0.0" })
      yield* run(["node", "where-to", "--base-url", "http://127.0.0.1:8080"]).pipe(Effect.provide(NodeContext.layer))
      expect(seen).toEqual(["http://127.0.0.1:8080"])
    }))
})
