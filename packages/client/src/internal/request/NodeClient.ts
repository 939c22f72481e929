/**
 * The client on Node: the request pipeline over an undici dispatcher driven directly
 * (`UndiciExchange`), signing with `node:crypto`. `NodeTransport` builds its public layers on it, and
 * `BrokerHistory`'s ready layers load it lazily on Node (this module loads `node:*` modules; it does
 * not import `BrokerHistory`, which loads it).
 *
 * @internal
 */
import type * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { BrokerConfig } from "../../BrokerConfig.js"
import { BrokerHttpClient } from "../../BrokerHttpClient.js"
import * as HttpProxy from "../../HttpProxy.js"
import * as ServerClock from "../../ServerClock.js"
import { Signer } from "../../Signer.js"
import * as Effects from "../line/Effects.js"
import * as Layers from "../line/Layers.js"
import * as Dispatchers from "./Dispatchers.js"
import * as Pipeline from "./Pipeline.js"
import * as UndiciExchange from "./UndiciExchange.js"

/** HMAC-SHA256 with `node:crypto`, synchronous. */
export const signer = (secretKey: Redacted.Redacted<string>): Effects.ServiceOf<Signer> => ({
  sign: (payload) => Effect.sync(() => NodeSignature.hmacSha256Hex(Redacted.value(secretKey), payload))
})

/** The client and the server clock it measures through itself, over `dispatcher`. */
export const services = (dispatcher: UndiciRequest.Dispatcher) =>
  Effect.map(
    Pipeline.make((config) => UndiciExchange.make(dispatcher, config.requestTimeout, config.maxResponseBytes)),
    (built) => Context.make(BrokerHttpClient, built.client).pipe(Context.add(ServerClock.ServerClock, built.clock))
  )

/**
 * The client and its clock through `proxy` (a URL, `"environment"`, `"none"` or an `HttpProxy`),
 * signing with the configured secret; the connection pool is made with the layer and destroyed with
 * it. A bad proxy fails the layer before any request.
 */
export const layerProxy = (
  proxy: HttpProxy.HttpProxy | string | Redacted.Redacted<string>,
  variables: Readonly<Record<string, string | undefined>>
) =>
  Layers.scopedContext(Effect.gen(function*() {
    const checked = typeof proxy === "string" || Redacted.isRedacted(proxy)
      ? yield* Effects.fromResult(HttpProxy.parse(proxy))
      : proxy
    const dispatcher = yield* Dispatchers.make(checked, variables)
    const config = yield* BrokerConfig
    return yield* Effect.provideService(services(dispatcher), Signer, signer(config.secretKey))
  }))
