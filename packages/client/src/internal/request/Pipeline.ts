/**
 * The request pipeline over one carrier (`Exchange`): the shared request budget, a fresh timestamp
 * and signature on every attempt, status → typed error, retries, one clock resync, decoding, spans
 * and counters. `BrokerHttpClient.make` runs it over a platform `HttpClient`, `NodeTransport` over
 * undici.
 *
 * @internal
 */
import type { Endpoint, QueryString as QS } from "@broker-history/domain"
import { Field, QueryString } from "@broker-history/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import type * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import { BrokerConfig } from "../../BrokerConfig.js"
import type { BrokerError } from "../../BrokerError.js"
import type { BrokerHttpClient } from "../../BrokerHttpClient.js"
import { ServerClock } from "../../ServerClock.js"
import { Signer } from "../../Signer.js"
import * as Budget from "../budget/Budget.js"
import * as Answer from "./Answer.js"
import type * as Exchange from "./Exchange.js"
import * as Retry from "./Retry.js"
import * as ServerText from "./ServerText.js"

/**
 * Counters and the request-duration histogram of the request pipeline, tagged with `endpoint`
 * (public as `BrokerHttpClient.metrics`).
 */
export const metrics = {
  /** Every attempt sent. */
  requests: Metric.counter("broker_history_requests_total", { description: "HTTP attempts sent", incremental: true }),
  /** Attempts that were retried (the failed attempt is counted). */
  retries: Metric.counter("broker_history_retries_total", { description: "attempts retried", incremental: true }),
  /** Requests per second the shared budget allows now (not tagged: one budget serves every endpoint). */
  rateLimitCurrent: Metric.gauge("broker_history_rate_limit_current", {
    description: "requests per second the client's budget allows now (lowered after 429/418, grows back)"
  }),
  /** Attempts that had to wait for the client's rate limiter. */
  rateLimitWaits: Metric.counter("broker_history_rate_limit_waits_total", {
    description: "attempts delayed by the client rate limiter",
    incremental: true
  }),
  /** 429/418 answers received. */
  rateLimited: Metric.counter("broker_history_rate_limited_total", {
    description: "429/418 answers received",
    incremental: true
  }),
  /** Seconds from sending an attempt to its whole answer, or to its failure (one sample per attempt). */
  requestDuration: Metric.histogram(
    "broker_history_request_duration_seconds",
    MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
    "seconds from sending an attempt to its whole answer or its failure"
  )
}

/** The metrics tagged per endpoint (the budget's gauge is the layer's, not an endpoint's). */
type Counters = Omit<typeof metrics, "rateLimitCurrent">

const countersByEndpoint = new Map<string, Counters>()
const countersFor = (endpoint: Endpoint.Endpoint): Counters => {
  let counters = countersByEndpoint.get(endpoint.name)
  if (counters === undefined) {
    counters = {
      requests: Metric.tagged(metrics.requests, "endpoint", endpoint.name),
      retries: Metric.tagged(metrics.retries, "endpoint", endpoint.name),
      rateLimitWaits: Metric.tagged(metrics.rateLimitWaits, "endpoint", endpoint.name),
      rateLimited: Metric.tagged(metrics.rateLimited, "endpoint", endpoint.name),
      requestDuration: Metric.tagged(metrics.requestDuration, "endpoint", endpoint.name)
    }
    countersByEndpoint.set(endpoint.name, counters)
  }
  return counters
}

// Built once per schema. The record pages carry a compiled decoder (the schema's field rules in one
// pass, with the schema itself as the fallback that reports what is wrong): with a generic Schema
// decoder, decoding a page cost several times the HTTP exchange (see packages/bench/README.md).
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
 * The pipeline over one carrier. The request budget (a sliding-window limiter that adapts to the
 * service's refusals) is created here, once: every call and stream through this service shares it.
 * `onTheirWayAtFirst`: see `Budget.make`.
 */
export const make = (
  exchangeFor: (config: BrokerConfig["Type"]) => Exchange.Exchange,
  onTheirWayAtFirst?: number
): Effect.Effect<BrokerHttpClient["Type"], never, BrokerConfig | Signer | ServerClock> =>
  Effect.gen(function*() {
    const config = yield* BrokerConfig
    const signer = yield* Signer
    const clock = yield* ServerClock
    const exchange = exchangeFor(config)
    const budget = yield* Budget.make(config.rateLimit, metrics.rateLimitCurrent, onTheirWayAtFirst)
    const maxRetryAfterMillis = Duration.toMillis(config.retry.maxRetryAfter)
    const apiKeyHeader = config.apiKeyHeader
    const { origin, pathname } = new URL(config.baseUrl)
    const basePath = pathname === "/" ? "" : pathname.replace(/\/$/, "")
    // The same on every attempt; neither carrier changes it (the platform request copies it).
    const headers: Record<string, string> = Object.freeze({
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
      const path = basePath + endpoint.path + "?"
      const signedParams = authParams.length === 0 ? params : [...params, ...authParams]

      /** The answer as the result or a typed error. */
      const outcome = (
        reply: Exchange.Reply,
        n: number,
        span: Tracer.Span | undefined,
        start: Budget.Start
      ): Effect.Effect<A, BrokerError> => {
        span?.attribute("http.response.status_code", reply.status)
        const read = Answer.read(ctx, reply, decode, n)
        if (Either.isRight(read)) {
          budget.accepted(start)
          return Effect.succeed(read.right)
        }
        const refused = read.left
        if (refused._tag === "ResponseDecodeError") {
          budget.accepted(start)
          return Effect.fail(refused)
        }
        return Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<never, BrokerError> => {
          const error = Answer.refusal(ctx, refused, reply, now, n, maxRetryAfterMillis)
          if (error._tag !== "RateLimited") {
            budget.accepted(start)
            return Effect.fail(error)
          }
          const counted = Effect.zipRight(
            Metric.increment(counters.rateLimited),
            Effect.zipRight(budget.refused(start, now, error), Effect.fail(error))
          )
          // An unreadable Retry-After is not obeyed (the retry backs off instead): say so.
          return reply.retryAfter !== undefined && Answer.retryAfterMillis(reply.retryAfter, now) === undefined
            ? Effect.zipRight(
              Effect.logDebug("broker Retry-After unreadable; backing off instead").pipe(
                Effect.annotateLogs({ endpoint: endpoint.name, retryAfter: ServerText.sanitize(reply.retryAfter, 60) })
              ),
              counted
            )
            : counted
        })
      }

      /** Attempt `n`: the budget, then a fresh timestamp and signature (never stale after a wait), then the exchange. */
      const attempt = (n: number, span: Tracer.Span | undefined): Effect.Effect<A, BrokerError> =>
        budget.attempt((start) => {
          const send = Effect.flatMap(clock.now, (timestamp) => {
            const query = QueryString.make([...signedParams, ["timestamp", String(timestamp)]])
            return Effect.flatMap(signer.sign(query), (signature) =>
              Effect.zipRight(
                Metric.increment(counters.requests),
                Effect.flatMap(
                  timed(exchange(origin, path + QueryString.withSignature(query, signature), headers, ctx, n)),
                  (reply) => outcome(reply, n, span, start)
                )
              ))
          })
          return start.waited > 0 ? Effect.zipRight(Metric.increment(counters.rateLimitWaits), send) : send
        })

      /** The exchange, its duration sampled whatever its outcome. */
      const timed = <R, E>(exchange: Effect.Effect<R, E>): Effect.Effect<R, E> =>
        Effect.clockWith((clock) => {
          const started = clock.unsafeCurrentTimeNanos()
          return Effect.onExit(
            exchange,
            () => Metric.update(counters.requestDuration, Number(clock.unsafeCurrentTimeNanos() - started) / 1e9)
          )
        })

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

      /**
       * The attempts with retries, and after a timestamp rejection (our clock drifted from the
       * server's) one clock measurement and one more round. `sent` numbers attempts across both.
       */
      const attempts = (traced: Tracer.Span | undefined): Effect.Effect<A, BrokerError> => {
        let sent = 0
        // `round` is the attempt's number within its round of retries: whether a failure is retried.
        const one = (round: number) => {
          const n = ++sent
          return traced === undefined ? attempt(n, undefined) : withSpan(
            "BrokerHttpClient.attempt",
            { parent: traced, attributes: { "broker.attempt": n } },
            (span) =>
              Effect.tapError(attempt(n, span), (error) => {
                if (Retry.willRetry(config.retry, error, round)) span.attribute("broker.retry.reason", error._tag)
                return Effect.void
              })
          )
        }
        const rounds = Retry.retrying(config.retry, one, onRetry)
        return Effect.catchTag(rounds, "TimestampRejected", (rejected) =>
          Effect.zipRight(
            Effect.logDebug("broker timestamp rejected; resynchronising clock").pipe(
              Effect.annotateLogs({ endpoint: endpoint.name })
            ),
            Effect.flatMap(
              Effect.either(clock.sync),
              (synced) => Either.isLeft(synced) ? Effect.fail(rejected) : Retry.retrying(config.retry, one, onRetry)
            )
          ))
      }

      // Spans cost a good share of a request; the built-in tracer keeps none, so none are made for it.
      return Effect.withFiberRuntime<A, BrokerError>((fiber) =>
        !fiber.getFiberRef(FiberRef.currentTracerEnabled) || fiber.currentTracer === builtInTracer
          ? Effect.suspend(() => attempts(undefined))
          : withSpan(
            `BrokerHttpClient.get ${endpoint.name}`,
            { kind: "client", attributes: spanAttributes(endpoint, params) },
            (span) =>
              Effect.withParentSpan(
                Effect.tap(attempts(span), (result) => {
                  if (Array.isArray(result)) span.attribute("broker.records", result.length)
                }),
                span
              )
          )
      )
    }

    return { get }
  })

const builtInTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/**
 * A span around `use(span)`, without the two costs that matter per page: the span does not keep a
 * successful result (the native span stores its exit, and spans holding 500-record pages made every
 * page survive into the old generation), and no stack trace is captured for it. A failure is
 * recorded as usual. The span is not installed as the current span: callers that need it as a parent
 * pass it on.
 */
const withSpan = <A, E>(
  name: string,
  options: Tracer.SpanOptions,
  use: (span: Tracer.Span) => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.flatMap(Effect.makeSpan(name, { ...options, captureStackTrace: false }), (span) =>
    Effect.onExit(
      use(span),
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
