/**
 * The service's clock as seen from here: the offset between local time and the server's
 * `GET /api/v3/time`, used for request timestamps and to pin "now" for full-history reads.
 * The offset starts at 0 and is measured on first need, and again after a timestamp rejection.
 * The request pipeline measures it through itself (`BrokerHttpClient.layer` provides it), so the
 * clock's requests share the budget, the retries, the spans and the metrics of every other.
 *
 * @since 0.2.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { BrokerError } from "./BrokerError.js"

/**
 * Server-time service: `now` (local time corrected by the last measured offset; never makes a
 * request), `offset` (server time minus local time, ms), `sync` (measures the offset now with one
 * `GET /api/v3/time` through the request pipeline, retried like any request) and `serverNow` (the
 * server's "now", measuring the offset first if it was never measured).
 *
 * @example
 * ```ts
 * import { ServerClock } from "@broker-history/client-effect4"
 * import { Effect } from "effect"
 *
 * const serverNow = ServerClock.ServerClock.use((clock) => clock.serverNow)
 * const aheadByOneMinute = ServerClock.layerFixed(60_000)
 * const skew = Effect.runSync(serverNow.pipe(Effect.map((now) => now - Date.now()), Effect.provide(aheadByOneMinute)))
 * assert.ok(skew > 59_000 && skew <= 60_000)
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class ServerClock extends Context.Service<ServerClock, {
  /** Local time corrected by the last measured offset (ms). Never makes a request. */
  readonly now: Effect.Effect<number>
  /** The current offset: server time minus local time (ms). */
  readonly offset: Effect.Effect<number>
  /** Measures the offset now (one `GET /api/v3/time`, retried like any request); returns it. */
  readonly sync: Effect.Effect<number, BrokerError>
  /** The server's "now": measures the offset first if it was never measured. */
  readonly serverNow: Effect.Effect<number, BrokerError>
}>()("@broker-history/client-effect4/ServerClock") {}

/**
 * A clock with a fixed offset that never calls the service (tests, or when time is known good).
 *
 * @example
 * ```ts
 * import { ServerClock } from "@broker-history/client-effect4"
 * import { Effect } from "effect"
 *
 * const measured = ServerClock.ServerClock.use((clock) => clock.sync)
 * assert.strictEqual(Effect.runSync(Effect.provide(measured, ServerClock.layerFixed(250))), 250)
 * ```
 *
 * @since 0.2.0
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
