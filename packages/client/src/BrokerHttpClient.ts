/**
 * The request pipeline every broker call goes through: base URL and API-key header, the shared rate
 * limiter, a fresh timestamp and signature on every attempt, status → typed error, the retry schedule
 * (honouring `Retry-After`), one clock resync on a timestamp rejection, and JSON + Schema decoding.
 *
 * The platform's own client span records the full URL, which carries the signature; it is switched
 * off for these requests and replaced by spans whose attributes hold no secret and no signature.
 *
 * This module runs on any runtime with a platform `HttpClient` (`FetchHttpClient.layer` included);
 * the faster undici carrier for Node is in `NodeTransport`.
 *
 * @since 0.1.0
 */
import type { Endpoint, QueryString as QS } from "@broker-history/domain"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"
import type { BrokerConfig } from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import * as Exchange from "./internal/Exchange.js"
import * as Pipeline from "./internal/Pipeline.js"
import type { ServerClock } from "./ServerClock.js"
import type { Signer } from "./Signer.js"

/**
 * The signed-request service.
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * import { Endpoint, TransferRecord } from "@broker-history/domain"
 * import { Effect } from "effect"
 * const firstPage = Effect.flatMap(BrokerHttpClient.BrokerHttpClient, (client) =>
 *   client.get(Endpoint.transferHistory, [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]], TransferRecord.TransferPage))
 */
export class BrokerHttpClient extends Context.Tag("@broker-history/client/BrokerHttpClient")<BrokerHttpClient, {
  /**
   * One signed GET of `endpoint` with the business `params` (in the order given), retried as
   * configured, its JSON body decoded with `schema`.
   */
  readonly get: <A, I>(
    endpoint: Endpoint.Endpoint,
    params: ReadonlyArray<QS.Param>,
    schema: Schema.Schema<A, I>
  ) => Effect.Effect<A, BrokerError>
}>() {}

/**
 * Counters of the request pipeline, tagged with `endpoint`.
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * import { Effect, Metric } from "effect"
 * const requestsSoFar = Metric.value(BrokerHttpClient.metrics.requests)
 */
export const metrics = Pipeline.metrics

/**
 * Builds the pipeline over a platform `HttpClient`. The platform's own client span (it would record
 * the signed URL) and trace propagation are switched off for these requests.
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * const make = BrokerHttpClient.make
 */
export const make: Effect.Effect<
  BrokerHttpClient["Type"],
  never,
  BrokerConfig | Signer | ServerClock | HttpClient.HttpClient
> = Effect.flatMap(HttpClient.HttpClient, (client) => {
  const http = client.pipe(
    HttpClient.withTracerDisabledWhen(() => true),
    HttpClient.withTracerPropagation(false)
  )
  return Pipeline.make((config) => Exchange.platform(http, config.requestTimeout, config.apiKeyHeader))
})

/**
 * The pipeline over a platform `HttpClient` (provide `FetchHttpClient.layer`,
 * `NodeHttpClient.layerUndici`, or a mock).
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * const HttpLive = BrokerHttpClient.layer // needs BrokerConfig, Signer, ServerClock, HttpClient
 */
export const layer: Layer.Layer<
  BrokerHttpClient,
  never,
  BrokerConfig | Signer | ServerClock | HttpClient.HttpClient
> = Layer.effect(BrokerHttpClient, make)
