/**
 * The Node transport: page requests driven directly over undici (one `request` per attempt, no
 * platform client machinery per request) and signatures computed synchronously with `node:crypto`.
 * The fastest way to run the client on Node, and what `BrokerHistory.layerUndici` and
 * `BrokerHistory.layerConfig` load (lazily: importing the package index loads no `node:*` module).
 * Requests go through the proxy the environment names (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`)
 * unless a layer is given another `HttpProxy`. It drives the `undici` package (7.x: Node's own HTTP
 * client, maintained by the Node project) directly, so it runs on every Node this package supports
 * (20.18.1 or later) and needs no `@effect/platform-node`.
 *
 * @since 0.2.0
 */
import type * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as Undici from "undici"
import { BrokerConfig } from "./BrokerConfig.js"
import * as BrokerHistory from "./BrokerHistory.js"
import type { BrokerHttpClient } from "./BrokerHttpClient.js"
import type * as HttpProxy from "./HttpProxy.js"
import * as Dispatchers from "./internal/request/Dispatchers.js"
import * as NodeClient from "./internal/request/NodeClient.js"
import type * as ServerClock from "./ServerClock.js"
import { Signer } from "./Signer.js"

/**
 * The undici `Dispatcher` (a connection pool: `Agent`, `ProxyAgent`, `Pool`, …) that the Node
 * transport sends every request through. `layerDispatcher` provides one through a proxy; provide
 * your own for other connection or TLS options.
 *
 * @example
 * ```ts
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Layer } from "effect"
 * import { Agent } from "undici"
 *
 * // At most 4 connections to the service, closed with the layer.
 * const FourConnections = Layer.effect(
 *   NodeTransport.Dispatcher,
 *   Effect.acquireRelease(
 *     Effect.sync(() => new Agent({ connections: 4 })),
 *     (agent) => Effect.promise(() => agent.destroy())
 *   )
 * )
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class Dispatcher extends Context.Service<Dispatcher, Undici.Dispatcher>()(
  "@broker-history/client-effect4/NodeTransport/Dispatcher"
) {}

/**
 * An HMAC-SHA256 signer from the secret over `node:crypto`: synchronous, no promise per request.
 *
 * @example
 * ```ts
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Redacted } from "effect"
 *
 * const signer = NodeTransport.makeSigner(Redacted.make("45d0b3c26f2644f19bfb98b07741b2f5"))
 * assert.strictEqual(
 *   Effect.runSync(signer.sign("fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087")),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const makeSigner = (secretKey: Redacted.Redacted<string>): Signer["Service"] => NodeClient.signer(secretKey)

/**
 * `makeSigner` with `BrokerConfig`'s secret.
 *
 * @example
 * ```ts
 * import { BrokerConfig, Signer } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const SignerLive = NodeTransport.layerSigner.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }))
 * )
 * const signature = Signer.Signer.use((signer) => signer.sign("a=1&timestamp=1644489390087"))
 * assert.match(Effect.runSync(Effect.provide(signature, SignerLive)), /^[0-9a-f]{64}$/)
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerSigner: Layer.Layer<Signer, never, BrokerConfig> = Layer.effect(
  Signer,
  Effect.map(Effect.service(BrokerConfig), (config) => makeSigner(config.secretKey))
)

/**
 * The request pipeline over the undici `Dispatcher`, driven directly: the client and the
 * `ServerClock` it measures through itself, as the two services of a `Context`.
 *
 * @example
 * ```ts
 * import { BrokerHttpClient } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { DepositRecord, Endpoint } from "@broker-history/domain-effect4"
 * import { Context, Effect } from "effect"
 *
 * const usdtDeposits = Effect.flatMap(
 *   NodeTransport.makeHttpClient,
 *   (services) =>
 *     Context.get(services, BrokerHttpClient.BrokerHttpClient).get(
 *       Endpoint.depositHistory,
 *       [["coin", "USDT"]],
 *       DepositRecord.DepositPage
 *     )
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const makeHttpClient: Effect.Effect<
  Context.Context<BrokerHttpClient | ServerClock.ServerClock>,
  never,
  BrokerConfig | Signer | Dispatcher
> = Effect.flatMap(Effect.service(Dispatcher), NodeClient.services)

/**
 * The request pipeline over an undici `Dispatcher` you provide (a proxy agent, custom TLS or
 * connection options).
 *
 * @example
 * ```ts
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Layer } from "effect"
 * import { getGlobalDispatcher } from "undici"
 *
 * // Over the process-wide undici dispatcher.
 * const HttpOverGlobalDispatcher = NodeTransport.layerHttpClientWithoutDispatcher.pipe(
 *   Layer.provide(Layer.sync(NodeTransport.Dispatcher, getGlobalDispatcher))
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerHttpClientWithoutDispatcher: Layer.Layer<
  BrokerHttpClient | ServerClock.ServerClock,
  never,
  BrokerConfig | Signer | Dispatcher
> = Layer.effectContext(makeHttpClient)

/**
 * The whole client over an undici `Dispatcher` you provide: every request over it directly (the
 * server-time requests included), `node:crypto` signing.
 *
 * @example
 * ```ts
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Layer } from "effect"
 * import { Agent } from "undici"
 *
 * // At most 4 connections to the service, closed with the layer.
 * const FourConnections = Layer.effect(
 *   NodeTransport.Dispatcher,
 *   Effect.acquireRelease(
 *     Effect.sync(() => new Agent({ connections: 4 })),
 *     (agent) => Effect.promise(() => agent.destroy())
 *   )
 * )
 * const HistoryLive = NodeTransport.layerWithoutDispatcher.pipe(Layer.provide(FourConnections))
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerWithoutDispatcher: Layer.Layer<
  BrokerHistory.BrokerHistory,
  never,
  BrokerConfig | Dispatcher
> = Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
  Layer.provide(layerHttpClientWithoutDispatcher),
  Layer.provide(layerSigner)
)

/**
 * An undici connection pool that sends requests through `proxy`, destroyed when the scope closes.
 * `HttpProxy.environment` reads `variables` (default `process.env`) now, through
 * `HttpProxy.fromEnvironment`; a bad proxy URL there, as in a `Url`, was refused before (a
 * `ConfigError` naming the variable), so nothing is sent.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Exit } from "effect"
 *
 * const bad = Effect.runSyncExit(
 *   Effect.scoped(NodeTransport.makeDispatcher(HttpProxy.environment, { HTTPS_PROXY: "proxy.internal:3128" }))
 * )
 * assert.ok(Exit.isFailure(bad) && String(bad.cause).includes("HTTPS_PROXY must start with http:// or https://"))
 * const direct = await Effect.runPromiseExit(Effect.scoped(NodeTransport.makeDispatcher(HttpProxy.none)))
 * assert.ok(Exit.isSuccess(direct))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const makeDispatcher = (
  proxy: HttpProxy.HttpProxy,
  variables: Readonly<Record<string, string | undefined>> = process.env
): Effect.Effect<Undici.Dispatcher, Config.ConfigError, Scope.Scope> => Dispatchers.make(proxy, variables)

/**
 * `makeDispatcher` as the `Dispatcher` service, for `layerWithoutDispatcher` or
 * `layerPlatformHttpClient`.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Layer } from "effect"
 *
 * // The platform HttpClient (for BrokerHistory.layer, say) through one proxy.
 * const HttpThroughProxy = NodeTransport.layerPlatformHttpClient.pipe(
 *   Layer.provide(NodeTransport.layerDispatcher(HttpProxy.environment))
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerDispatcher = (
  proxy: HttpProxy.HttpProxy,
  variables: Readonly<Record<string, string | undefined>> = process.env
): Layer.Layer<Dispatcher, Config.ConfigError> => Layer.effect(Dispatcher, makeDispatcher(proxy, variables))

/**
 * An `effect/http` `HttpClient` over the undici `Dispatcher`: undici's own `fetch` sends every
 * request through it (the dispatcher's proxy and connection options apply), and never follows a
 * redirect (it would carry the key header wherever `Location` points; a 3xx comes back as it is).
 * For `BrokerHistory.layer` and other users of a platform client on Node; `layerWithoutDispatcher`
 * is the faster way to run this client over the same dispatcher.
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHistory, HttpProxy } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Layer, Redacted } from "effect"
 *
 * // The generic service over the platform client, through the proxy the environment names.
 * const HistoryLive = BrokerHistory.layer.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })),
 *   Layer.provide(NodeTransport.layerPlatformHttpClient),
 *   Layer.provide(NodeTransport.layerDispatcher(HttpProxy.environment))
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerPlatformHttpClient: Layer.Layer<HttpClient.HttpClient, never, Dispatcher> = FetchHttpClient.layer
  .pipe(
    // undici's `fetch` and its `RequestInit` (the `dispatcher` option) are typed as undici's, not the DOM's.
    Layer.provide(Layer.succeed(FetchHttpClient.Fetch, Undici.fetch as unknown as typeof globalThis.fetch)),
    Layer.provide(Layer.effect(
      FetchHttpClient.RequestInit,
      Effect.map(
        Effect.service(Dispatcher),
        (dispatcher) => ({ dispatcher, redirect: "manual" }) satisfies Undici.RequestInit as unknown as RequestInit
      )
    ))
  )

/**
 * The whole client through the given proxy: a proxy URL (credentials allowed, as
 * `http://user:password@host:port`; give it `Redacted` when it has them), `"environment"` or
 * `"none"`, or an `HttpProxy`. A bad value fails the layer with a `ConfigError` naming `proxy`
 * before any request. Page and server-time requests share the proxied connection pool.
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const ConfigLive = BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })
 * const ThroughProxy = NodeTransport.layerProxy(Redacted.make("http://user:pw@proxy.internal:3128"))
 * const Direct = NodeTransport.layerProxy("none")
 *
 * const refused = Effect.runSyncExit(Layer.build(NodeTransport.layerProxy("proxy.internal:3128").pipe(
 *   Layer.provide(ConfigLive)
 * )).pipe(Effect.scoped))
 * assert.ok(refused._tag === "Failure" && String(refused.cause).includes("proxy must start with http:// or https://"))
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerProxy = (
  proxy: HttpProxy.HttpProxy | string | Redacted.Redacted<string>,
  variables: Readonly<Record<string, string | undefined>> = process.env
): Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError, BrokerConfig> =>
  Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
    Layer.provide(NodeClient.layerProxy(proxy, variables))
  )
