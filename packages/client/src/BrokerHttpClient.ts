/**
 * The request pipeline every broker call goes through: base URL and API-key header, the shared rate
 * limiter, a fresh timestamp and signature on every attempt, status → typed error, the retry schedule
 * (honouring `Retry-After`), one clock resync on a timestamp rejection, and JSON + Schema decoding.
 *
 * The platform's own client span records the full URL, which carries the signature; it is switched
 * off for these requests and replaced by spans whose attributes hold no secret and no signature.
 *
 * @since 0.1.0
 */
import type { Endpoint, QueryString as QS } from "@broker-history/domain"
import { Field, QueryString } from "@broker-history/domain"
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import type * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import { BrokerConfig } from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import * as Answer from "./internal/Answer.js"
import * as Retry from "./internal/Retry.js"
import * as SlidingWindow from "./internal/SlidingWindow.js"
import { ServerClock } from "./ServerClock.js"
import { Signer } from "./Signer.js"

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
export const metrics = {
  /** Every attempt sent. */
  requests: Metric.counter("broker_history_requests_total", { description: "HTTP attempts sent", incremental: true }),
  /** Attempts that were retried (the failed attempt is counted). */
  retries: Metric.counter("broker_history_retries_total", { description: "attempts retried", incremental: true }),
  /** Attempts that had to wait for the client's rate limiter. */
  rateLimitWaits: Metric.counter("broker_history_rate_limit_waits_total", {
    description: "attempts delayed by the client rate limiter",
    incremental: true
  }),
  /** 429/418 answers received. */
  rateLimited: Metric.counter("broker_history_rate_limited_total", {
    description: "429/418 answers received",
    incremental: true
  })
}

const countersByEndpoint = new Map<string, typeof metrics>()
const countersFor = (endpoint: Endpoint.Endpoint): typeof metrics => {
  let counters = countersByEndpoint.get(endpoint.name)
  if (counters === undefined) {
    counters = {
      requests: Metric.tagged(metrics.requests, "endpoint", endpoint.name),
      retries: Metric.tagged(metrics.retries, "endpoint", endpoint.name),
      rateLimitWaits: Metric.tagged(metrics.rateLimitWaits, "endpoint", endpoint.name),
      rateLimited: Metric.tagged(metrics.rateLimited, "endpoint", endpoint.name)
    }
    countersByEndpoint.set(endpoint.name, counters)
  }
  return counters
}

// Built once per schema. The record pages carry a compiled decoder (the schema's field rules in one
// pass, with the schema itself as the fallback that reports what is wrong): with a generic Schema
// decoder, decoding a page of 500 records cost several times the HTTP exchange (see packages/bench).
const decoders = new WeakMap<object, (u: unknown) => Either.Either<any, ParseResult.ParseError>>()
const decoderFor = <A, I>(schema: Schema.Schema<A, I>): (u: unknown) => Either.Either<A, ParseResult.ParseError> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Field.decoder(schema)
    decoders.set(schema, decode)
  }
  return decode
}

/**
 * Builds the pipeline. The request budget (a sliding-window limiter) is created here, once: every call
 * and stream through this service shares it.
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * const make = BrokerHttpClient.make
 */
export const make = Effect.gen(function*() {
  const config = yield* BrokerConfig
  const signer = yield* Signer
  const clock = yield* ServerClock
  // The platform's own span would record the signed URL: it is off for these requests.
  const http = (yield* HttpClient.HttpClient).pipe(
    HttpClient.withTracerDisabledWhen(() => true),
    HttpClient.withTracerPropagation(false)
  )
  const waitForBudget = yield* SlidingWindow.make(
    config.rateLimit.limit,
    Duration.sum(config.rateLimit.interval, config.rateLimit.margin)
  )
  const redactKeyHeader = (names: ReadonlyArray<string | RegExp>) =>
    names.includes(config.apiKeyHeader) ? names : [...names, config.apiKeyHeader]

  const apiKeyHeader = config.apiKeyHeader
  const headers = (): Record<string, string> => ({
    [apiKeyHeader]: Redacted.value(config.apiKey),
    "content-type": "application/json",
    accept: "application/json"
  })
  const authParams: ReadonlyArray<QS.Param> = config.recvWindow === undefined
    ? []
    : [["recvWindow", String(config.recvWindow)]]

  const get = <A, I>(
    endpoint: Endpoint.Endpoint,
    params: ReadonlyArray<QS.Param>,
    schema: Schema.Schema<A, I>
  ): Effect.Effect<A, BrokerError> => {
    const ctx = Answer.endpointContext(endpoint, params)
    const decode = decoderFor(schema)
    const counters = countersFor(endpoint)
    const base = config.baseUrl + endpoint.path + "?"

    // `sent` counts attempts across the retry loop and the post-resync retry, for error reports.
    const attempt = (counter: { sent: number }): Effect.Effect<A, BrokerError> =>
      Effect.gen(function*() {
        const n = ++counter.sent
        const waited = yield* waitForBudget
        if (waited > 0) yield* Metric.increment(counters.rateLimitWaits)
        // Timestamp and signature are made after the wait, so a waited attempt is never stale.
        const timestamp = yield* clock.now
        const query = QueryString.make(
          authParams.length === 0 ? [...params, ["timestamp", String(timestamp)]] : [
            ...params,
            ...authParams,
            ["timestamp", String(timestamp)]
          ]
        )
        const signature = yield* signer.sign(query)
        const request = HttpClientRequest.get(base + QueryString.withSignature(query, signature)).pipe(
          HttpClientRequest.setHeaders(headers())
        )
        yield* Metric.increment(counters.requests)
        const outcome = yield* Effect.gen(function*() {
          const response = yield* http.execute(request)
          const text = yield* response.text
          return { status: response.status, retryAfter: response.headers["retry-after"], text }
        }).pipe(
          // Anything that renders these request headers (platform spans, logs) shows the key redacted.
          Effect.locallyWith(Headers.currentRedactedNames, redactKeyHeader),
          (exchange) => Answer.withinDeadline(exchange, ctx, n, config.requestTimeout)
        )
        yield* Effect.annotateCurrentSpan("http.response.status_code", outcome.status)
        if (outcome.status < 200 || outcome.status >= 300) {
          const now = yield* Clock.currentTimeMillis
          const error = Answer.refusal(
            ctx,
            outcome.status,
            outcome.text,
            Answer.retryAfterMillis(outcome.retryAfter, now),
            n
          )
          if (error._tag === "RateLimited") yield* Metric.increment(counters.rateLimited)
          return yield* Effect.fail(error)
        }
        const body = Answer.decodeBody(ctx, outcome.status, outcome.text, decode, n)
        return yield* Either.isRight(body) ? Effect.succeed(body.right) : Effect.fail(body.left)
      }).pipe(
        withSpan("BrokerHttpClient.attempt", { attributes: { "broker.attempt": counter.sent + 1 } })
      )

    const onRetry = (error: BrokerError, n: number, delay: Duration.Duration) =>
      Effect.zipRight(
        Metric.increment(counters.retries),
        Effect.logDebug("broker request retried").pipe(
          Effect.annotateLogs({
            endpoint: endpoint.name,
            attempt: n,
            error: error._tag,
            delayMillis: Duration.toMillis(delay)
          })
        )
      )

    const withRetries = (counter: { sent: number }) => Retry.retrying(config.retry, () => attempt(counter), onRetry)

    return Effect.suspend(() => {
      const counter = { sent: 0 }
      return withRetries(counter).pipe(
        // A timestamp rejection means our clock drifted from the server's: measure again, re-sign, retry once.
        Effect.catchTag("TimestampRejected", (rejected) =>
          Effect.zipRight(
            Effect.logDebug("broker timestamp rejected; resynchronising clock").pipe(
              Effect.annotateLogs({ endpoint: endpoint.name })
            ),
            Effect.flatMap(Effect.either(clock.sync), (synced) =>
              Either.isLeft(synced) ? Effect.fail(rejected) : withRetries(counter))
          ))
      )
    }).pipe(
      Effect.tap((result) =>
        Array.isArray(result) ? Effect.annotateCurrentSpan("broker.records", result.length) : Effect.void
      ),
      withSpan(`BrokerHttpClient.get ${endpoint.name}`, {
        kind: "client",
        attributes: spanAttributes(endpoint, params)
      })
    )
  }

  return BrokerHttpClient.of({ get })
})

/**
 * `Effect.withSpan` without the two costs that matter per page: the span does not keep a successful
 * result (the native span stores its exit, and spans holding 500-record pages made every page survive
 * into the old generation: 2-3x the garbage-collection time of the whole request), and no stack trace
 * is captured for it. A failure is recorded as usual.
 */
const withSpan = (name: string, options: Tracer.SpanOptions) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.makeSpan(name, { ...options, captureStackTrace: false }), (span) =>
    Effect.onExit(
      Effect.withParentSpan(self, span),
      (exit) => Effect.map(Clock.currentTimeNanos, (now) => span.end(now, Exit.isSuccess(exit) ? Exit.void : exit))
    ))

const spanAttributes = (endpoint: Endpoint.Endpoint, params: ReadonlyArray<QS.Param>): Record<string, unknown> => {
  const attributes: Record<string, unknown> = {
    "broker.endpoint": endpoint.name,
    "http.request.method": "GET",
    "url.path": endpoint.path
  }
  for (const [name, value] of params) {
    if (name === "startTime") attributes["broker.window.start"] = Number(value)
    else if (name === "endTime") attributes["broker.window.end"] = Number(value)
    else if (name === "page") attributes["broker.page"] = Number(value)
    else if (name === "limit") attributes["broker.limit"] = Number(value)
  }
  return attributes
}

/**
 * The pipeline over a platform `HttpClient` (provide `NodeHttpClient.layerUndici` or
 * `FetchHttpClient.layer`).
 *
 * @example
 * import { BrokerHttpClient } from "@broker-history/client"
 * const HttpLive = BrokerHttpClient.layer // needs BrokerConfig, Signer, ServerClock, HttpClient
 */
export const layer: Layer.Layer<
  BrokerHttpClient,
  never,
  BrokerConfig | Signer | ServerClock | HttpClient.HttpClient
> = Layer.scoped(BrokerHttpClient, make)
