/**
 * The service's clock as seen from here: the offset between local time and the server's
 * `GET /api/v3/time`, used for request timestamps and to pin "now" for full-history reads.
 * The offset starts at 0 and is measured on first need, and again after a timestamp rejection.
 *
 * @since 0.1.0
 */
import { Endpoint } from "@broker-history/domain"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as ParseResult from "effect/ParseResult"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { BrokerConfig } from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import * as Answer from "./internal/request/Answer.js"
import * as Exchange from "./internal/request/Exchange.js"
import * as Retry from "./internal/request/Retry.js"

/**
 * Server-time service: `now` (local time corrected by the last measured offset; never makes a
 * request), `offset` (server time minus local time, ms), `sync` (measures the offset now with one
 * `GET /api/v3/time`, retried like any request) and `serverNow` (the server's "now", measuring the
 * offset first if it was never measured).
 *
 * @example
 * ```ts
 * import { ServerClock } from "@broker-history/client"
 * import { Effect } from "effect"
 *
 * const serverNow = Effect.flatMap(ServerClock.ServerClock, (clock) => clock.serverNow)
 * const aheadByOneMinute = ServerClock.layerFixed(60_000)
 * const skew = Effect.runSync(serverNow.pipe(Effect.map((now) => now - Date.now()), Effect.provide(aheadByOneMinute)))
 * assert.ok(skew > 59_000 && skew <= 60_000)
 * ```
 *
 * @since 0.1.0
 * @category services
 */
export class ServerClock extends Context.Tag("@broker-history/client/ServerClock")<ServerClock, {
  /** Local time corrected by the last measured offset (ms). Never makes a request. */
  readonly now: Effect.Effect<number>
  /** The current offset: server time minus local time (ms). */
  readonly offset: Effect.Effect<number>
  /** Measures the offset now (one `GET /api/v3/time`, retried like any request); returns it. */
  readonly sync: Effect.Effect<number, BrokerError>
  /** The server's "now": measures the offset first if it was never measured. */
  readonly serverNow: Effect.Effect<number, BrokerError>
}>() {}

const ServerTime = Schema.Struct({
  serverTime: Schema.Union(Schema.Number, Schema.NumberFromString)
})
const decodeServerTime = Schema.decodeUnknownEither(ServerTime)

/**
 * Builds the clock over an `HttpClient` (unsigned requests to the configured base URL).
 *
 * @example
 * ```ts
 * import { BrokerConfig, ServerClock } from "@broker-history/client"
 * import { HttpClient, HttpClientResponse } from "@effect/platform"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * // A stand-in service whose clock is 5 seconds ahead.
 * const FiveSecondsAhead = Layer.succeed(
 *   HttpClient.HttpClient,
 *   HttpClient.make((request) =>
 *     Effect.sync(() =>
 *       HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ serverTime: Date.now() + 5_000 })))
 *     )
 *   )
 * )
 * const offset = await ServerClock.make.pipe(
 *   Effect.flatMap((clock) => clock.sync),
 *   Effect.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })),
 *   Effect.provide(FiveSecondsAhead),
 *   Effect.runPromise
 * )
 * assert.ok(Math.abs(offset - 5_000) < 100)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Context.Tag.Service<ServerClock>, never, BrokerConfig | HttpClient.HttpClient> = Effect
  .gen(function*() {
    const config = yield* BrokerConfig
    // The same exchange as every page: the body bounded by maxResponseBytes, redirects reported.
    const exchange = Exchange.platform(
      yield* HttpClient.HttpClient,
      config.requestTimeout,
      config.apiKeyHeader,
      config.maxResponseBytes
    )
    const offsetRef = yield* Ref.make(0)
    const synced = yield* Ref.make(false)
    const ctx = Answer.requestContext("serverTime", [])
    const { origin, pathname } = new URL(config.baseUrl)
    const pathAndQuery = (pathname === "/" ? "" : pathname.replace(/\/$/, "")) + Endpoint.timePath
    const headers = { accept: "application/json" }
    const maxRetryAfterMillis = Duration.toMillis(config.retry.maxRetryAfter)
    const decode = (u: unknown) => Either.mapLeft(decodeServerTime(u), (e) => e as ParseResult.ParseError)

    const attempt = (n: number): Effect.Effect<number, BrokerError> =>
      Effect.gen(function*() {
        const before = yield* Clock.currentTimeMillis
        const reply = yield* exchange(origin, pathAndQuery, headers, ctx, n)
        const after = yield* Clock.currentTimeMillis
        const body = Answer.read(ctx, reply, decode, n)
        if (Either.isLeft(body)) {
          return yield* Effect.fail(
            body.left._tag === "Refused"
              ? Answer.refusal(ctx, body.left, reply, after, n, maxRetryAfterMillis)
              : body.left
          )
        }
        // The server read its clock somewhere between sending and receiving: assume the middle.
        return Math.round(body.right.serverTime - (before + after) / 2)
      })

    const sync = Retry.retrying(config.retry, attempt, () => Effect.void).pipe(
      Effect.tap((offset) => Effect.zipRight(Ref.set(offsetRef, offset), Ref.set(synced, true))),
      Effect.withSpan("ServerClock.sync")
    )
    const now = Effect.zipWith(Clock.currentTimeMillis, Ref.get(offsetRef), (local, offset) => local + offset)
    return {
      now,
      offset: Ref.get(offsetRef),
      sync,
      serverNow: Effect.flatMap(Ref.get(synced), (done) => done ? now : Effect.zipRight(sync, now))
    }
  })

/**
 * The clock, measuring against the configured service.
 *
 * @example
 * ```ts
 * import { BrokerConfig, ServerClock } from "@broker-history/client"
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer } from "effect"
 *
 * const ClockLive = ServerClock.layer.pipe(
 *   Layer.provide(BrokerConfig.layerConfig()),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ServerClock, never, BrokerConfig | HttpClient.HttpClient> = Layer.effect(
  ServerClock,
  make
)

/**
 * A clock with a fixed offset that never calls the service (tests, or when time is known good).
 *
 * @example
 * ```ts
 * import { ServerClock } from "@broker-history/client"
 * import { Effect } from "effect"
 *
 * const measured = Effect.flatMap(ServerClock.ServerClock, (clock) => clock.sync)
 * assert.strictEqual(Effect.runSync(Effect.provide(measured, ServerClock.layerFixed(250))), 250)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFixed = (offsetMillis: number): Layer.Layer<ServerClock> => {
  const now = Effect.map(Clock.currentTimeMillis, (local) => local + offsetMillis)
  return Layer.succeed(ServerClock, {
    now,
    offset: Effect.succeed(offsetMillis),
    sync: Effect.succeed(offsetMillis),
    serverNow: now
  })
}
