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
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type { BrokerConfig } from "./BrokerConfig.js"
import * as Exchange from "./internal/request/Exchange.js"
import * as Pipeline from "./internal/request/Pipeline.js"
import { ServerClock } from "./ServerClock.js"
import type { Signer } from "./Signer.js"

/**
 * The signed-request service: `get(endpoint, params, schema)` is one signed GET of `endpoint` with
 * the business `params` (in the order given), retried as configured, its JSON body decoded with
 * `schema`.
 *
 * @example
 * ```ts
 * import { BrokerHttpClient } from "@broker-history/client-effect4"
 * import { Endpoint, TransferRecord } from "@broker-history/domain-effect4"
 * import { Effect } from "effect"
 *
 * const firstPage = BrokerHttpClient.BrokerHttpClient.use((client) =>
 *   client.get(
 *     Endpoint.transferHistory,
 *     [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]],
 *     TransferRecord.TransferPage
 *   )
 * )
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class BrokerHttpClient
  extends Context.Service<BrokerHttpClient, Pipeline.Client>()("@broker-history/client-effect4/BrokerHttpClient")
{}

/**
 * The metrics of the request pipeline, tagged with `endpoint`: `broker_history_requests_total`
 * (attempts sent), `broker_history_retries_total` (attempts retried),
 * `broker_history_rate_limit_waits_total`, `broker_history_rate_limited_total` (429/418 answers) and
 * the histogram `broker_history_request_duration_seconds` (one sample per attempt that completes, from
 * sending to the whole answer or the failure); untagged, the gauge `broker_history_rate_limit_current` (requests per
 * second the layer's budget allows now: below `rateLimit.limit` after a 429/418 while it grows back,
 * see docs/configuration.md). They live in Effect's metric registry: `Metric.value` reads them, and
 * Effect's OTLP exporter (`effect/observability/OtlpMetrics`) exports them (see docs/operations.md).
 *
 * @example
 * ```ts
 * import { BrokerHttpClient } from "@broker-history/client-effect4"
 * import { Effect, Metric } from "effect"
 *
 * const retries = Metric.withAttributes(BrokerHttpClient.metrics.retries, { endpoint: "depositHistory" })
 * const report = Effect.map(Metric.value(retries), (state) => `deposit-history retries: ${state.count}`)
 * assert.match(Effect.runSync(report), /^deposit-history retries: \d+$/)
 *
 * const durations = Metric.withAttributes(BrokerHttpClient.metrics.requestDuration, { endpoint: "depositHistory" })
 * const bounds = Effect.map(Metric.value(durations), (state) => state.buckets.map(([bound]) => bound))
 * assert.deepStrictEqual(Effect.runSync(bounds), [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30])
 * ```
 *
 * @since 0.2.0
 * @category metrics
 */
export const metrics = Pipeline.metrics

/**
 * Builds the pipeline over a platform `HttpClient`: the client, and the `ServerClock` it measures
 * through itself (`GET /api/v3/time` shares the budget, the retries, the spans and the metrics), as
 * the two services of a `Context`. The platform's own client span (it would record the signed URL)
 * and trace propagation are switched off for these requests.
 *
 * @example
 * ```ts
 * import { BrokerHttpClient } from "@broker-history/client-effect4"
 * import { Context, Effect, Layer } from "effect"
 *
 * // The pipeline with a log line after every call.
 * const LoggedHttpClient = Layer.effectContext(
 *   Effect.map(BrokerHttpClient.make, (services) => {
 *     const client = Context.get(services, BrokerHttpClient.BrokerHttpClient)
 *     return Context.add(services, BrokerHttpClient.BrokerHttpClient, {
 *       get: (endpoint, params, schema) =>
 *         client.get(endpoint, params, schema).pipe(Effect.tap(() => Effect.logDebug(`GET ${endpoint.path} done`)))
 *     })
 *   })
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<
  Context.Context<BrokerHttpClient | ServerClock>,
  never,
  BrokerConfig | Signer | HttpClient.HttpClient
> = Effect.flatMap(
  Effect.service(HttpClient.HttpClient),
  (http) =>
    Effect.map(
      Pipeline.make((config) =>
        Exchange.platform(http, config.requestTimeout, config.apiKeyHeader, config.maxResponseBytes)
      ),
      (built) => Context.make(BrokerHttpClient, built.client).pipe(Context.add(ServerClock, built.clock))
    )
)

/**
 * The pipeline over a platform `HttpClient` (provide `FetchHttpClient.layer`,
 * `NodeTransport.layerPlatformHttpClient`, or a mock), with the `ServerClock` it measures through itself.
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHttpClient, Signer } from "@broker-history/client-effect4"
 * import { Endpoint, TransferRecord } from "@broker-history/domain-effect4"
 * import { Effect, Layer, Redacted } from "effect"
 * import { HttpClient, HttpClientResponse } from "effect/http"
 *
 * const sent: Array<string> = []
 * const Recording = Layer.succeed(
 *   HttpClient.HttpClient,
 *   HttpClient.make((request) => {
 *     sent.push(request.url)
 *     return Effect.succeed(HttpClientResponse.fromWeb(request, new Response("[]")))
 *   })
 * )
 * const HttpTest = BrokerHttpClient.layer.pipe(
 *   Layer.provide(Signer.layerHmacSha256),
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })),
 *   Layer.provide(Recording)
 * )
 * await BrokerHttpClient.BrokerHttpClient.use((client) =>
 *   client.get(
 *     Endpoint.transferHistory,
 *     [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]],
 *     TransferRecord.TransferPage
 *   )
 * ).pipe(Effect.provide(HttpTest), Effect.runPromise)
 * const url = new URL(sent[0])
 * assert.strictEqual(url.pathname, "/api/v3/broker/sub-account/universalTransfer")
 * // The business parameters in the order given, then the timestamp, then the signature of all that.
 * assert.match(url.search, /^\?fromAccountType=SPOT&toAccountType=FUTURES&timestamp=\d+&signature=[0-9a-f]{64}$/)
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<
  BrokerHttpClient | ServerClock,
  never,
  BrokerConfig | Signer | HttpClient.HttpClient
> = Layer.effectContext(make)
