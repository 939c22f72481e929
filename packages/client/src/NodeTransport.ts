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
 * ```ts
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { Effect, Redacted } from "effect"
 *
 * const signer = NodeTransport.makeSigner(Redacted.make("45d0b3c26f2644f19bfb98b07741b2f5"))
 * assert.strictEqual(
 *   Effect.runSync(signer.sign("fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087")),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.1.0
 * @category signing
 */
export const makeSigner = (secretKey: Redacted.Redacted<string>): Context.Tag.Service<Signer> => ({
  sign: (payload) => Effect.sync(() => NodeSignature.hmacSha256Hex(Redacted.value(secretKey), payload))
})

/**
 * `makeSigner` with `BrokerConfig`'s secret.
 *
 * @example
 * ```ts
 * import { BrokerConfig, Signer } from "@broker-history/client"
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const SignerLive = NodeTransport.layerSigner.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }))
 * )
 * const signature = Effect.flatMap(Signer.Signer, (signer) => signer.sign("a=1&timestamp=1644489390087"))
 * assert.match(Effect.runSync(Effect.provide(signature, SignerLive)), /^[0-9a-f]{64}$/)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerSigner: Layer.Layer<Signer, never, BrokerConfig> = Layer.effect(
  Signer,
  Effect.map(BrokerConfig, (config) => makeSigner(config.secretKey))
)

/**
 * The request pipeline over an undici `Dispatcher` (`NodeHttpClient.Dispatcher`), driven directly.
 *
 * @example
 * ```ts
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { DepositRecord, Endpoint } from "@broker-history/domain"
 * import { Effect } from "effect"
 *
 * const usdtDeposits = Effect.flatMap(
 *   NodeTransport.makeHttpClient,
 *   (client) => client.get(Endpoint.depositHistory, [["coin", "USDT"]], DepositRecord.DepositPage)
 * )
 * ```
 *
 * @since 0.1.0
 * @category constructors
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
 * ```ts
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Layer } from "effect"
 *
 * // Over the process-wide undici dispatcher (the one `fetch` uses).
 * const HttpOverGlobalDispatcher = NodeTransport.layerHttpClientWithoutDispatcher.pipe(
 *   Layer.provide(NodeHttpClient.dispatcherLayerGlobal)
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
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
 * ```ts
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Agent } from "@effect/platform-node/Undici"
 * import { Effect, Layer } from "effect"
 *
 * // At most 4 connections to the service, closed with the layer.
 * const FourConnections = Layer.scoped(
 *   NodeHttpClient.Dispatcher,
 *   Effect.acquireRelease(
 *     Effect.sync(() => new Agent({ connections: 4 })),
 *     (agent) => Effect.promise(() => agent.destroy())
 *   )
 * )
 * const HistoryLive = NodeTransport.layerWithoutDispatcher.pipe(Layer.provide(FourConnections))
 * ```
 *
 * @since 0.1.0
 * @category layers
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
 * ```ts
 * import { BrokerConfig } from "@broker-history/client"
 * import * as NodeTransport from "@broker-history/client/NodeTransport"
 * import { Layer } from "effect"
 *
 * const HistoryLive = NodeTransport.layer.pipe(Layer.provide(BrokerConfig.layerConfig()))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BrokerHistory.BrokerHistory, never, BrokerConfig> = layerWithoutDispatcher.pipe(
  Layer.provide(NodeHttpClient.dispatcherLayer)
)
