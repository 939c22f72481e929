/**
 * The Node transport: page requests driven directly over undici (one `request` per attempt, no
 * platform client machinery per request) and signatures computed synchronously with `node:crypto`.
 * The fastest way to run the client on Node, and what `BrokerHistory.layerUndici` and
 * `BrokerHistory.layerConfig` load (lazily: importing the package index loads no `node:*` module).
 *
 * @since 0.1.0
 */
import * as NodeSignature from "@broker-history/domain/NodeSignature"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BrokerConfig } from "./BrokerConfig.js"
import * as BrokerHistory from "./BrokerHistory.js"
import { BrokerHttpClient } from "./BrokerHttpClient.js"
import * as Pipeline from "./internal/Pipeline.js"
import * as UndiciExchange from "./internal/UndiciExchange.js"
import * as ServerClock from "./ServerClock.js"
import { Signer } from "./Signer.js"

/**
 * An HMAC-SHA256 signer from the secret over `node:crypto`: synchronous, no promise per request.
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { Effect, Redacted } from "effect"
 * Effect.runSync(NodeTransport.makeSigner(Redacted.make("secret")).sign("a=1")).length // 64
 */
export const makeSigner = (secretKey: Redacted.Redacted<string>): Context.Tag.Service<Signer> => ({
  sign: (payload) => Effect.sync(() => NodeSignature.hmacSha256Hex(Redacted.value(secretKey), payload))
})

/**
 * `makeSigner` with `BrokerConfig`'s secret.
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * const SignerLive = NodeTransport.layerSigner // needs BrokerConfig
 */
export const layerSigner: Layer.Layer<Signer, never, BrokerConfig> = Layer.effect(
  Signer,
  Effect.map(BrokerConfig, (config) => makeSigner(config.secretKey))
)

/**
 * The request pipeline over an undici `Dispatcher` (`NodeHttpClient.Dispatcher`), driven directly.
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * const make = NodeTransport.makeHttpClient
 */
export const makeHttpClient: Effect.Effect<
  BrokerHttpClient["Type"],
  never,
  BrokerConfig | Signer | ServerClock.ServerClock | NodeHttpClient.Dispatcher
> = Effect.flatMap(
  NodeHttpClient.Dispatcher,
  (dispatcher) => Pipeline.make((config) => UndiciExchange.make(dispatcher, config.requestTimeout))
)

/**
 * The request pipeline over an undici `Dispatcher` you provide (a proxy agent, custom TLS or
 * connection options).
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Layer } from "effect"
 * const HttpLive = NodeTransport.layerHttpClientWithoutDispatcher.pipe(Layer.provide(NodeHttpClient.dispatcherLayerGlobal))
 */
export const layerHttpClientWithoutDispatcher: Layer.Layer<
  BrokerHttpClient,
  never,
  BrokerConfig | Signer | ServerClock.ServerClock | NodeHttpClient.Dispatcher
> = Layer.effect(BrokerHttpClient, makeHttpClient)

/**
 * The whole client over an undici `Dispatcher` you provide: page requests over it directly, the
 * server-time requests through the platform client over the same dispatcher, `node:crypto` signing.
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Layer } from "effect"
 * const HistoryLive = NodeTransport.layerWithoutDispatcher.pipe(Layer.provide(NodeHttpClient.dispatcherLayerGlobal))
 */
export const layerWithoutDispatcher: Layer.Layer<
  BrokerHistory.BrokerHistory,
  never,
  BrokerConfig | NodeHttpClient.Dispatcher
> = Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
  Layer.provide(layerHttpClientWithoutDispatcher),
  Layer.provide(Layer.mergeAll(layerSigner, ServerClock.layer)),
  Layer.provide(NodeHttpClient.layerUndiciWithoutDispatcher)
)

/**
 * The whole client over its own undici connection pool, closed with the layer: what
 * `BrokerHistory.layerUndici` is.
 *
 * @example
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * const HistoryLive = NodeTransport.layer // needs BrokerConfig
 */
export const layer: Layer.Layer<BrokerHistory.BrokerHistory, never, BrokerConfig> = layerWithoutDispatcher.pipe(
  Layer.provide(NodeHttpClient.dispatcherLayer)
)
