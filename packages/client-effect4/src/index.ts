/**
 * `@broker-history/client-effect4`: typed, signed, rate-limited access (Effect 4) to a broker's sub-account transfer
 * and deposit history.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./BrokerConfig.js"

/**
 * Client configuration (options or environment).
 *
 * @example
 * ```ts
 * import { BrokerConfig } from "@broker-history/client-effect4"
 * import { Redacted } from "effect"
 *
 * const ConfigLive = BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })
 * ```
 *
 * @since 0.2.0
 */
export * as BrokerConfig from "./BrokerConfig.js"
/**
 * The typed failures of every call.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client-effect4"
 *
 * const error = new BrokerError.TransportError({
 *   request: { endpoint: "transferHistory" },
 *   reason: "Connect",
 *   description: "ECONNREFUSED",
 *   attempts: 6
 * })
 * assert.strictEqual(BrokerError.isRetryable(error), true)
 * ```
 *
 * @since 0.2.0
 */
export * as BrokerError from "./BrokerError.js"
/**
 * The endpoint calls.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client-effect4"
 *
 * const firstPage = BrokerHistory.BrokerHistory.use((history) => history.depositHistory({ coin: "USDT", limit: 1000 }))
 * ```
 *
 * @since 0.2.0
 */
export * as BrokerHistory from "./BrokerHistory.js"
/**
 * The signed request pipeline.
 *
 * @example
 * ```ts
 * import { BrokerHttpClient } from "@broker-history/client-effect4"
 * import { Endpoint, TransferRecord } from "@broker-history/domain-effect4"
 *
 * const page = BrokerHttpClient.BrokerHttpClient.use((client) =>
 *   client.get(
 *     Endpoint.transferHistory,
 *     [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]],
 *     TransferRecord.TransferPage
 *   )
 * )
 * ```
 *
 * @since 0.2.0
 */
export * as BrokerHttpClient from "./BrokerHttpClient.js"
/**
 * Stream checkpoints and change elements.
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 * import { Result } from "effect"
 *
 * const text = Checkpoint.encode({ time: 1735689600000, ids: ["42"] })
 * assert.deepStrictEqual(Checkpoint.decode(text), Result.succeed({ time: 1735689600000, ids: ["42"] }))
 * ```
 *
 * @since 0.2.0
 */
export * as Checkpoint from "./Checkpoint.js"
/**
 * Many change streams followed on one budget: busy streams polled often, quiet ones backed off.
 *
 * @example
 * ```ts
 * import { FollowScheduler } from "@broker-history/client-effect4"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toSeconds(FollowScheduler.defaults.minInterval), 1)
 * ```
 *
 * @since 0.2.0
 */
export * as FollowScheduler from "./FollowScheduler.js"
/**
 * The full-history walk (windows, ordering, dedup, follow).
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const rows = [{ id: "a", t: 1 }, { id: "b", t: 2 }]
 * const walk = FullHistory.records({
 *   fetch: (startTime, endTime) => Effect.succeed(rows.filter((r) => r.t >= startTime && r.t <= endTime)),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t,
 *   fingerprint: (r) => r.id,
 *   limit: 10,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 10,
 *   concurrency: 1
 * })
 * assert.deepStrictEqual(Effect.runSync(Stream.runCollect(walk)), rows)
 * ```
 *
 * @since 0.2.0
 */
export * as FullHistory from "./FullHistory.js"
/**
 * Which HTTP proxy the Node transport uses.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import { Result } from "effect"
 *
 * assert.strictEqual(Result.getOrThrow(HttpProxy.parse("environment")), HttpProxy.environment)
 * ```
 *
 * @since 0.2.0
 */
export * as HttpProxy from "./HttpProxy.js"
/**
 * One outage of a dependency as a value (start, end, stale failures) and the backoff that rides it
 * out: what the follow streams use for the service, for an application's own dependencies too.
 *
 * @example
 * ```ts
 * import { Outage } from "@broker-history/client-effect4"
 *
 * const down = Outage.failed(Outage.initial, { at: 1_000, message: "connect ECONNREFUSED", tag: "SqlError" }, 0)
 * assert.strictEqual(down.outage?.since, 1_000)
 * ```
 *
 * @since 0.2.0
 */
export * as Outage from "./Outage.js"
/**
 * The service's clock offset.
 *
 * @example
 * ```ts
 * import { ServerClock } from "@broker-history/client-effect4"
 * import { Effect } from "effect"
 *
 * const offset = ServerClock.ServerClock.use((clock) => clock.offset)
 * assert.strictEqual(Effect.runSync(Effect.provide(offset, ServerClock.layerFixed(-40))), -40)
 * ```
 *
 * @since 0.2.0
 */
export * as ServerClock from "./ServerClock.js"
/**
 * Request signing.
 *
 * @example
 * ```ts
 * import { Signer } from "@broker-history/client-effect4"
 * import { Effect, Redacted } from "effect"
 *
 * const signature = Effect.flatMap(Signer.makeHmacSha256(Redacted.make("secret")), (signer) => signer.sign("a=1"))
 * assert.match(await Effect.runPromise(signature), /^[0-9a-f]{64}$/)
 * ```
 *
 * @since 0.2.0
 */
export * as Signer from "./Signer.js"
/**
 * The options of the full-history streams.
 *
 * @example
 * ```ts
 * import { StreamOptions } from "@broker-history/client-effect4"
 * import { Duration } from "effect"
 *
 * const lastMonth: StreamOptions.TransferStreamQuery = {
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   since: Date.now() - 30 * 86_400_000
 * }
 * assert.strictEqual(Duration.toDays(StreamOptions.defaultLookback), 365)
 * ```
 *
 * @since 0.2.0
 */
export * as StreamOptions from "./StreamOptions.js"
/**
 * The transfer streams that cover a broker's history: sub-accounts and account types in, keyed
 * queries out.
 *
 * @example
 * ```ts
 * import { TransferPlan } from "@broker-history/client-effect4"
 *
 * const planned = TransferPlan.ofSubAccounts(["sub001@broker.test"], ["SPOT", "FUTURES"])
 * assert.strictEqual(planned.length, 3 * 4)
 * ```
 *
 * @since 0.2.0
 */
export * as TransferPlan from "./TransferPlan.js"
