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
