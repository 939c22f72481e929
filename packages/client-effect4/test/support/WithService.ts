/**
 * The reference service on 127.0.0.1 (its own limiter far above the tests' rates) and a client for
 * it over real HTTP, in one scope: the setting of the client's integration tests.
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
import { ApiKeys } from "@broker-history/server"
import type { ReferenceServer } from "@broker-history/server"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import * as ReferenceService from "./ReferenceService.js"

/**
 * Runs `f` with a reference server (options `serverOptions`) and `BrokerHistory.layerUndici` for it:
 * the demo key, a budget of 5,000 per second, 8 fast retries; `clientOptions` override any of that.
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
    const client = yield* Layer.build(BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
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
