/**
 * The reference service on 127.0.0.1 (its own limiter far above the tests' rates) and a client for
 * it over real HTTP, in one scope: the setting of the client's integration tests.
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import { Chunk, Effect, Layer, Redacted, Stream } from "effect"

/**
 * Runs `f` with a reference server (options `serverOptions`) and `BrokerHistory.layerUndici` for it:
 * the demo key, a budget of 5,000 per second, 8 fast retries; `clientOptions` override any of that.
 */
export const withService = <A, E>(
  serverOptions: ReferenceServer.Options,
  clientOptions: Partial<BrokerConfig.Options>,
  f: (server: ReferenceServer.Service, history: BrokerHistory.BrokerHistory["Type"]) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const history = yield* BrokerHistory.BrokerHistory
    return yield* f(server, history)
  }).pipe(
    Effect.provide(
      Layer.provideMerge(
        Layer.unwrapEffect(Effect.map(ReferenceServer.ReferenceServer, (server) =>
          BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
            baseUrl: server.baseUrl,
            apiKey: Redacted.make(ApiKeys.demo.apiKey),
            secretKey: Redacted.make(ApiKeys.demo.secretKey),
            rateLimit: { limit: 5000, interval: "1 second" },
            retry: { maxRetries: 8, baseDelay: "5 millis", maxDelay: "50 millis" },
            ...clientOptions
          }))))),
        ReferenceServer.layer({ rateLimit: { limit: 100_000, window: "1 second" }, ...serverOptions })
      )
    )
  )

/** Every element of `s`, in order. */
export const collect = <A, E>(s: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(s), Chunk.toReadonlyArray)
