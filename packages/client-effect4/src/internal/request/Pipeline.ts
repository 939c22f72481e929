/**
 * The request pipeline over one carrier (`Exchange`): the shared request budget, a fresh timestamp
 * and signature on every attempt, status → typed error, retries, one clock resync, decoding, spans
 * and counters. The server's clock is measured through it too (`GET /api/v3/time`, unsigned), so
 * every request the client sends shares one budget, one retry policy, the spans and the metrics.
 * `BrokerHttpClient.make` runs it over a platform `HttpClient`, `NodeTransport` over undici.
 *
 * @internal
 */
import * as CoreAnswer from "@broker-history/core/request/Answer"
import * as ServerText from "@broker-history/core/request/ServerText"
import type * as QS from "@broker-history/core/signing/QueryString"
import * as QueryString from "@broker-history/core/signing/QueryString"
import { Endpoint, Field } from "@broker-history/domain-effect4"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import { BrokerConfig } from "../../BrokerConfig.js"
import type { BrokerError, RequestContext } from "../../BrokerError.js"
import type { ServerClock } from "../../ServerClock.js"
import { Signer } from "../../Signer.js"
import * as Budget from "../budget/Budget.js"
import * as SettingNames from "../SettingNames.js"
import * as Answer from "./Answer.js"
import type * as Exchange from "./Exchange.js"
import * as Retry from "./Retry.js"

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
  requestDuration: Metric.histogram("broker_history_request_duration_seconds", {
    boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    description: "seconds from sending an attempt to its whole answer or its failure"
  })
}

/** The metrics tagged per endpoint (the budget's gauge is the layer's, not an endpoint's). */
type Counters = Omit<typeof metrics, "rateLimitCurrent">

const countersByEndpoint = new Map<string, Counters>()
const countersFor = (endpoint: string): Counters => {
  let counters = countersByEndpoint.get(endpoint)
  if (counters === undefined) {
    const tags = { endpoint }
    counters = {
      requests: Metric.withAttributes(metrics.requests, tags),
      retries: Metric.withAttributes(metrics.retries, tags),
      rateLimitWaits: Metric.withAttributes(metrics.rateLimitWaits, tags),
      rateLimited: Metric.withAttributes(metrics.rateLimited, tags),
      requestDuration: Metric.withAttributes(metrics.requestDuration, tags)
    }
    countersByEndpoint.set(endpoint, counters)
  }
  return counters
}

/** The endpoint name of the clock's requests, in metrics, logs, spans and errors. */
export const serverTime = "serverTime"

const ServerTime = Schema.Struct({
  serverTime: Schema.Union([Schema.Number, Schema.NumberFromString])
})
/** A domain decoder (its failure a `SchemaError`) as the pipeline reads bodies: the failure's issue. */
const issueOf = <A>(decode: (u: unknown) => Result.Result<A, Schema.SchemaError>): Answer.Decode<A> => (u) =>
  Result.mapError(decode(u), (error) => error.issue)

const decodeServerTime: Answer.Decode<{ readonly serverTime: number }> = issueOf(Field.decoder(ServerTime))

// Built once per schema. The record pages carry a compiled decoder (the schema's field rules in one
// pass, with the schema itself as the fallback that reports what is wrong): with a generic Schema
// decoder, decoding a page cost several times the HTTP exchange (see packages/bench/README.md).
const decoders = new WeakMap<object, Answer.Decode<any>>()
const decoderFor = <A>(schema: Schema.Decoder<A>): Answer.Decode<A> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = issueOf(Field.decoder(schema))
    decoders.set(schema, decode)
  }
  return decode
}

/** The signed-request service (public as `BrokerHttpClient`). */
export interface Client {
  /**
   * One signed GET of `endpoint` with the business `params` (in the order given), retried as
   * configured, its JSON body decoded with `schema`.
   */
  readonly get: <A>(
    endpoint: Endpoint.Endpoint,
    params: ReadonlyArray<QS.Param>,
    schema: Schema.Decoder<A>
  ) => Effect.Effect<A, BrokerError>
}

/** What `make` builds: the client and the server clock it measures through itself. */
export interface Built {
  readonly client: Client
  readonly clock: ServerClock["Service"]
}

/**
 * The pipeline over one carrier. The request budget (a sliding-window limiter that adapts to the
 * service's refusals) is created here, once: every call and stream through this service shares it,
 * the clock's requests included. `clock`: a clock to use instead of measuring one (tests);
 * `onTheirWayAtFirst`: see `Budget.make`.
 */
export const make = (
  exchangeFor: (config: BrokerConfig["Service"]) => Exchange.Exchange,
  options?: {
    readonly clock?: ServerClock["Service"] | undefined
    readonly onTheirWayAtFirst?: number | undefined
  }
): Effect.Effect<Built, never, BrokerConfig | Signer> =>
  Effect.gen(function*() {
    const config = yield* BrokerConfig
    const signer = yield* Signer
    const exchange = exchangeFor(config)
    const budget = yield* Budget.make(config.rateLimit, metrics.rateLimitCurrent, options?.onTheirWayAtFirst)
    const schedule = config.retry.schedule
    const named = SettingNames.name(config.names)
    const maxRetryAfterMillis = Duration.toMillis(config.retry.maxRetryAfter)
    const { origin, pathname } = new URL(config.baseUrl)
    const basePath = pathname === "/" ? "" : pathname.replace(/\/$/, "")
    // The same on every attempt; neither carrier changes it (the platform request copies it).
    const headers: Record<string, string> = Object.freeze({
      [config.apiKeyHeader]: Redacted.value(config.apiKey),
      "content-type": "application/json",
      accept: "application/json"
    })
    // The clock's requests are public: they carry no key.
    const unsignedHeaders: Record<string, string> = Object.freeze({ accept: "application/json" })
    const authParams: ReadonlyArray<QS.Param> = config.recvWindow === undefined
      ? []
      : [["recvWindow", String(config.recvWindow)]]

    /** One attempt's exchange through the budget, its answer as the result or a typed error. */
    const exchangeOnce = <A>(
      ctx: RequestContext,
      counters: Counters,
      pathAndQuery: Effect.Effect<string>,
      requestHeaders: Record<string, string>,
      decode: Answer.Decode<A>,
      n: number,
      span: Tracer.Span | undefined
    ): Effect.Effect<A, BrokerError> =>
      budget.attempt((start) => {
        const send = Effect.flatMap(pathAndQuery, (target) =>
          Effect.andThen(
            Metric.update(counters.requests, 1),
            Effect.flatMap(
              timed(counters, exchange(origin, target, requestHeaders, ctx, n)),
              (reply) => outcome(ctx, counters, reply, decode, n, span, start)
            )
          ))
        return start.waited > 0 ? Effect.andThen(Metric.update(counters.rateLimitWaits, 1), send) : send
      })

    /** The answer as the result or a typed error, told to the budget. */
    const outcome = <A>(
      ctx: RequestContext,
      counters: Counters,
      reply: Answer.Reply,
      decode: Answer.Decode<A>,
      n: number,
      span: Tracer.Span | undefined,
      start: Budget.Start
    ): Effect.Effect<A, BrokerError> => {
      span?.attribute("http.response.status_code", reply.status)
      const read = Answer.read(ctx, reply, decode, n)
      if (Result.isSuccess(read)) {
        budget.accepted(start)
        return Effect.succeed(read.success)
      }
      const refused = read.failure
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
        const counted = Effect.andThen(
          Metric.update(counters.rateLimited, 1),
          Effect.andThen(budget.refused(start, now, error), Effect.fail(error))
        )
        // An unreadable Retry-After is not obeyed (the retry backs off instead): say so.
        return reply.retryAfter !== undefined && CoreAnswer.retryAfterMillis(reply.retryAfter, now) === undefined
          ? Effect.andThen(
            Effect.logDebug("broker Retry-After unreadable; backing off instead").pipe(
              Effect.annotateLogs({ endpoint: ctx.endpoint, retryAfter: ServerText.sanitize(reply.retryAfter, 60) })
            ),
            counted
          )
          : counted
      })
    }

    const onRetry =
      (endpoint: string, counters: Counters) => (error: BrokerError, n: number, delay: Duration.Duration) =>
        Effect.andThen(
          Metric.update(counters.retries, 1),
          Effect.logDebug("broker request retried").pipe(
            Effect.annotateLogs({ endpoint, attempt: n, error: error._tag, delayMillis: Duration.toMillis(delay) })
          )
        )

    /**
     * The attempts of one request as the retry schedule decides, each in its own span when traced;
     * the decision to retry is made inside the attempt's span, which records why.
     */
    const retried = <A>(
      endpoint: string,
      counters: Counters,
      attempt: (n: number, span: Tracer.Span | undefined) => Effect.Effect<A, BrokerError>,
      traced: Tracer.Span | undefined,
      numbered: { sent: number }
    ): Effect.Effect<A, BrokerError> =>
      Retry.retrying(schedule, (_, decide) => {
        const n = ++numbered.sent
        return traced === undefined ? attempt(n, undefined) : withSpan(
          "BrokerHttpClient.attempt",
          { parent: traced, attributes: { "broker.attempt": n } },
          (span) =>
            Effect.tapError(attempt(n, span), (error) =>
              Effect.map(decide(error), (delay) => {
                if (Option.isSome(delay)) span.attribute("broker.retry.reason", error._tag)
              }))
        )
      }, onRetry(endpoint, counters))

    /** `attempts` in a client span, unless the tracer keeps none (spans cost a good share of a request). */
    const inSpan = <A>(
      name: string,
      attributes: Record<string, unknown>,
      attempts: (traced: Tracer.Span | undefined) => Effect.Effect<A, BrokerError>
    ): Effect.Effect<A, BrokerError> =>
      Effect.withFiber<A, BrokerError>((fiber) =>
        !fiber.getRef(References.TracerEnabled) || fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer
          ? Effect.suspend(() => attempts(undefined))
          : withSpan(name, { kind: "client", attributes }, (span) =>
            Effect.withParentSpan(
              Effect.map(attempts(span), (result) => {
                if (Array.isArray(result)) span.attribute("broker.records", result.length)
                return result
              }),
              span
            ))
      )

    // The clock: one unsigned `GET /api/v3/time` through the budget and the retries; the server read
    // its clock somewhere between sending and receiving, so the middle is assumed.
    const timeContext = CoreAnswer.requestContext(serverTime, [])
    const timeCounters = countersFor(serverTime)
    const timePath = Effect.succeed(basePath + Endpoint.timePath)
    const measure = inSpan(
      "ServerClock.sync",
      { "broker.endpoint": serverTime, "http.request.method": "GET", "url.path": Endpoint.timePath },
      (traced) =>
        retried(
          serverTime,
          timeCounters,
          (n, span) =>
            Effect.flatMap(Clock.currentTimeMillis, (before) =>
              Effect.flatMap(
                exchangeOnce(timeContext, timeCounters, timePath, unsignedHeaders, decodeServerTime, n, span),
                (answer) =>
                  Effect.map(Clock.currentTimeMillis, (after) => Math.round(answer.serverTime - (before + after) / 2))
              )),
          traced,
          { sent: 0 }
        )
    )
    const clock = options?.clock ?? (yield* measured(measure))

    const get = <A>(
      endpoint: Endpoint.Endpoint,
      params: ReadonlyArray<QS.Param>,
      schema: Schema.Decoder<A>
    ): Effect.Effect<A, BrokerError> => {
      const ctx = Answer.endpointContext(endpoint, params)
      const decode = decoderFor(schema)
      const counters = countersFor(endpoint.name)
      const path = basePath + endpoint.path + "?"
      const signedParams = authParams.length === 0 ? params : [...params, ...authParams]
      // A fresh timestamp and signature on every attempt: never stale after a wait.
      const signed = Effect.flatMap(clock.now, (timestamp) => {
        const query = QueryString.make([...signedParams, ["timestamp", String(timestamp)]])
        return Effect.map(signer.sign(query), (signature) => path + QueryString.withSignature(query, signature))
      })
      const attempt = (n: number, span: Tracer.Span | undefined) =>
        exchangeOnce(ctx, counters, signed, headers, decode, n, span)

      /**
       * The attempts with retries, and after a timestamp rejection (our clock drifted from the
       * server's) one clock measurement and one more round. Attempts are numbered across both.
       */
      const attempts = (traced: Tracer.Span | undefined): Effect.Effect<A, BrokerError> => {
        const numbered = { sent: 0 }
        return Effect.mapError(
          Effect.catchTag(
            retried(endpoint.name, counters, attempt, traced, numbered),
            "TimestampRejected",
            (rejected) =>
              Effect.andThen(
                Effect.logDebug("broker timestamp rejected; resynchronising clock").pipe(
                  Effect.annotateLogs({ endpoint: endpoint.name })
                ),
                Effect.flatMap(
                  Effect.result(clock.sync),
                  (synced) =>
                    Result.isFailure(synced)
                      ? Effect.fail(rejected)
                      : retried(endpoint.name, counters, attempt, traced, numbered)
                )
              )
          ),
          named
        )
      }
      return inSpan(`BrokerHttpClient.get ${endpoint.name}`, spanAttributes(endpoint, params), attempts)
    }

    return { client: { get }, clock }
  })

/** A clock over `measure` (the offset, ms): measured on first need and on every `sync`. */
const measured = (measure: Effect.Effect<number, BrokerError>): Effect.Effect<ServerClock["Service"]> =>
  Effect.gen(function*() {
    const offsetRef = yield* Ref.make(0)
    const synced = yield* Ref.make(false)
    const sync = Effect.tap(measure, (offset) => Effect.andThen(Ref.set(offsetRef, offset), Ref.set(synced, true)))
    const now = Effect.zipWith(Clock.currentTimeMillis, Ref.get(offsetRef), (local, offset) => local + offset)
    return {
      now,
      offset: Ref.get(offsetRef),
      sync,
      serverNow: Effect.flatMap(Ref.get(synced), (done) => done ? now : Effect.andThen(sync, now))
    }
  })

/** The exchange, its duration sampled whatever its outcome. */
const timed = <R, E>(counters: Counters, exchange: Effect.Effect<R, E>): Effect.Effect<R, E> =>
  Effect.clockWith((clock) => {
    const started = clock.currentTimeNanosUnsafe()
    return Effect.onExit(
      exchange,
      () => Metric.update(counters.requestDuration, Number(clock.currentTimeNanosUnsafe() - started) / 1e9)
    )
  })

/**
 * A span around `use(span)`, without the cost that matters per page: the span does not keep a
 * successful result (the native span stores its exit, and spans holding 500-record pages made every
 * page survive into the old generation). A failure is recorded as usual. The span is not installed as the current span: callers that need it as a parent
 * pass it on.
 */
const withSpan = <A, E>(
  name: string,
  options: Tracer.SpanOptionsNoTrace,
  use: (span: Tracer.Span) => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.flatMap(Effect.makeSpan(name, options), (span) =>
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
