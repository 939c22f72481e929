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
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import type * as Tracer from "effect/Tracer"
import { BrokerConfig } from "../../BrokerConfig.js"
import type { BrokerError, RequestContext } from "../../BrokerError.js"
import type { ServerClock } from "../../ServerClock.js"
import { Signer } from "../../Signer.js"
import * as Budget from "../budget/Budget.js"
import * as Decoding from "../line/Decoding.js"
import { Endpoint } from "../line/Domain.js"
import * as Effects from "../line/Effects.js"
import * as Metrics from "../line/Metrics.js"
import * as Results from "../line/Results.js"
import * as SettingNames from "../SettingNames.js"
import * as Answer from "./Answer.js"
import type * as Exchange from "./Exchange.js"
import * as Retry from "./Retry.js"

/**
 * Counters and the request-duration histogram of the request pipeline, tagged with `endpoint`
 * (public as `BrokerHttpClient.metrics`).
 */
export const metrics = Metrics.metrics

type Counters = Metrics.Counters

/** The endpoint name of the clock's requests, in metrics, logs, spans and errors. */
export const serverTime = "serverTime"

/** The signed-request service (public as `BrokerHttpClient`). */
export interface Client {
  /**
   * One signed GET of `endpoint` with the business `params` (in the order given), retried as
   * configured, its JSON body decoded with `schema`.
   */
  readonly get: <A>(
    endpoint: Endpoint.Endpoint,
    params: ReadonlyArray<QS.Param>,
    schema: Decoding.Decoder<A>
  ) => Effect.Effect<A, BrokerError>
}

/** What `make` builds: the client and the server clock it measures through itself. */
export interface Built {
  readonly client: Client
  readonly clock: Effects.ServiceOf<ServerClock>
}

/**
 * The pipeline over one carrier. The request budget (a sliding-window limiter that adapts to the
 * service's refusals) is created here, once: every call and stream through this service shares it,
 * the clock's requests included. `clock`: a clock to use instead of measuring one (tests);
 * `onTheirWayAtFirst`: see `Budget.make`.
 */
export const make = (
  exchangeFor: (config: Effects.ServiceOf<BrokerConfig>) => Exchange.Exchange,
  options?: {
    readonly clock?: Effects.ServiceOf<ServerClock> | undefined
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
      decode: Decoding.Decode<A>,
      n: number,
      span: Tracer.Span | undefined
    ): Effect.Effect<A, BrokerError> =>
      budget.attempt((start) => {
        const send = Effect.flatMap(pathAndQuery, (target) =>
          Effect.andThen(
            Metrics.increment(counters.requests),
            Effect.flatMap(
              timed(counters, exchange(origin, target, requestHeaders, ctx, n)),
              (reply) => outcome(ctx, counters, reply, decode, n, span, start)
            )
          ))
        return start.waited > 0 ? Effect.andThen(Metrics.increment(counters.rateLimitWaits), send) : send
      })

    /** The answer as the result or a typed error, told to the budget. */
    const outcome = <A>(
      ctx: RequestContext,
      counters: Counters,
      reply: Answer.Reply,
      decode: Decoding.Decode<A>,
      n: number,
      span: Tracer.Span | undefined,
      start: Budget.Start
    ): Effect.Effect<A, BrokerError> => {
      span?.attribute("http.response.status_code", reply.status)
      return Results.match(Answer.read(ctx, reply, decode, n), {
        onSuccess: (value): Effect.Effect<A, BrokerError> => {
          budget.accepted(start)
          return Effect.succeed(value)
        },
        onFailure: (refused) => {
          if (refused._tag !== "ResponseDecodeError") return refusal(ctx, counters, reply, n, start, refused)
          budget.accepted(start)
          return Effect.fail(refused)
        }
      })
    }

    /** A refusal as its typed error, told to the budget (a 429/418 as a refusal, anything else as an answer). */
    const refusal = (
      ctx: RequestContext,
      counters: Counters,
      reply: Answer.Reply,
      n: number,
      start: Budget.Start,
      refused: CoreAnswer.Refused
    ): Effect.Effect<never, BrokerError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<never, BrokerError> => {
        const error = Answer.refusal(ctx, refused, reply, now, n, maxRetryAfterMillis)
        if (error._tag !== "RateLimited") {
          budget.accepted(start)
          return Effect.fail(error)
        }
        const counted = Effect.andThen(
          Metrics.increment(counters.rateLimited),
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

    const onRetry =
      (endpoint: string, counters: Counters) => (error: BrokerError, n: number, delay: Duration.Duration) =>
        Effect.andThen(
          Metrics.increment(counters.retries),
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
      Effects.ifTraced(
        () =>
          withSpan(name, { kind: "client", attributes }, (span) =>
            Effect.withParentSpan(
              Effect.map(attempts(span), (result) => {
                if (Array.isArray(result)) span.attribute("broker.records", result.length)
                return result
              }),
              span
            )),
        () => attempts(undefined)
      )

    // The clock: one unsigned `GET /api/v3/time` through the budget and the retries; the server read
    // its clock somewhere between sending and receiving, so the middle is assumed.
    const timeContext = CoreAnswer.requestContext(serverTime, [])
    const timeCounters = Metrics.countersFor(serverTime)
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
                exchangeOnce(timeContext, timeCounters, timePath, unsignedHeaders, Decoding.decodeServerTime, n, span),
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
      schema: Decoding.Decoder<A>
    ): Effect.Effect<A, BrokerError> => {
      const ctx = Answer.endpointContext(endpoint, params)
      const decode = Decoding.decoderFor(schema)
      const counters = Metrics.countersFor(endpoint.name)
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
                  Effects.result(clock.sync),
                  (synced) =>
                    !Results.isSuccess(synced)
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
const measured = (measure: Effect.Effect<number, BrokerError>): Effect.Effect<Effects.ServiceOf<ServerClock>> =>
  Effect.gen(function*() {
    const offsetRef = yield* Ref.make(0)
    const synced = yield* Ref.make(false)
    const sync = Effect.tap(measure, (offset) => Effect.andThen(Ref.set(offsetRef, offset), Ref.set(synced, true)))
    // Read on every signed attempt: two steps (`zipWith` on Effect 3 goes through `Effect.all`).
    const now = Effect.flatMap(
      Ref.get(offsetRef),
      (offset) => Effect.clockWith((clock) => Effect.succeed(Effects.currentTimeMillisUnsafe(clock) + offset))
    )
    return {
      now,
      offset: Ref.get(offsetRef),
      sync,
      serverNow: Effect.flatMap(Ref.get(synced), (done) => done ? now : Effect.andThen(sync, now))
    }
  })

/**
 * The exchange, its duration sampled when it completes, with an answer or a failure. An exchange its
 * caller interrupts has no duration (and is not held uninterruptible to record one: that costs a
 * good share of the pipeline's steps on every request).
 */
const timed = <R, E>(counters: Counters, exchange: Effect.Effect<R, E>): Effect.Effect<R, E> =>
  Effect.clockWith((clock) => {
    const started = Effects.currentTimeNanosUnsafe(clock)
    const sample = () =>
      Metrics.sample(counters.requestDuration, Number(Effects.currentTimeNanosUnsafe(clock) - started) / 1e9)
    return Effect.matchCauseEffect(exchange, {
      onFailure: (cause) => Effect.andThen(sample(), Effect.failCause(cause)),
      onSuccess: (reply) => Effect.as(sample(), reply)
    })
  })

/**
 * A span around `use(span)`, without the two costs that matter per page: the span does not keep a
 * successful result (the native span stores its exit, and spans holding 500-record pages made every
 * page survive into the old generation), and no stack trace is captured for it (`Effects.makeSpan`).
 * A failure is recorded as usual. The span is not installed as the current span: callers that need it as a parent
 * pass it on.
 */
const withSpan = <A, E>(
  name: string,
  options: Effects.SpanOptions,
  use: (span: Tracer.Span) => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.flatMap(Effects.makeSpan(name, options), (span) =>
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
