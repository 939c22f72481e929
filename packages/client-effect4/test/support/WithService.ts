/**
 * The reference service on 127.0.0.1 (its own limiter far above the tests' rates) and a client for
 * it over real HTTP, in one scope: the setting of the client's integration tests. The client runs
 * over undici where Effect 4's `@effect/platform-node` does (Node 22.19 or later), over `fetch`
 * elsewhere, as `BrokerHistory.layerConfig` picks.
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
import { ApiKeys } from "@broker-history/server"
import type { ReferenceServer } from "@broker-history/server"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import * as ReferenceService from "./ReferenceService.js"

/** Node 22.19 or later: where `BrokerHistory.layerUndici` runs. */
export const undiciRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
  return major > 22 || major === 22 && minor >= 19
})()

/** The client over the runtime's transport: undici where it runs, `fetch` (no redirects followed) elsewhere. */
export const transport: Layer.Layer<BrokerHistory.BrokerHistory, any, BrokerConfig.BrokerConfig> = undiciRuns
  ? BrokerHistory.layerUndici
  : BrokerHistory.layer.pipe(
    Layer.provide(FetchHttpClient.layer),
    Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
  )

/**
 * Runs `f` with a reference server (options `serverOptions`) and a client for it: the demo key, a
 * budget of 5,000 per second, 8 fast retries; `clientOptions` override any of that.
 */
export const withService = <A, E>(
  serverOptions: ReferenceServer.Options,
  clientOptions: Partial<BrokerConfig.Options>,
  f: (server: ReferenceService.Bridged, history: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, E>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* ReferenceService.start({
      rateLimit: { limit: 100_000, window: "1 second" },
      ...serverOptions
    })
    const client = yield* Layer.build(transport.pipe(Layer.provide(BrokerConfig.layer({
      baseUrl: server.baseUrl,
      apiKey: Redacted.make(ApiKeys.demo.apiKey),
      secretKey: Redacted.make(ApiKeys.demo.secretKey),
      rateLimit: { limit: 5000, interval: "1 second" },
      retry: { maxRetries: 8, baseDelay: "5 millis", maxDelay: "50 millis" },
      ...clientOptions
    }))))
    const history = Context.get(client, BrokerHistory.BrokerHistory)
    return yield* f(server, history)
  }))

/** Every element of `s`, in order. */
export const collect = <A, E>(s: Stream.Stream<A, E>) => Stream.runCollect(s)
