/**
 * The reference service's internal modules that the workspace's tests and benchmarks use: the seeded
 * generator (`Prng`), the limiter the service counts requests with (`RateLimit`), the JSON it answers
 * for a stored row (`WireFormat`) and the settlement of pending transfers (`PendingSettlement`).
 *
 * They are not part of `@broker-history/server`'s public API (its `exports` map `./internal/*` to
 * nothing, so a published package cannot reach them): this private package re-exports them by
 * relative path, the one place outside the server that does.
 *
 * @since 0.2.0
 */
export * as Prng from "@broker-history/core/random/Prng"
export * as WireFormat from "../../server/src/internal/http/WireFormat.js"
export * as RateLimit from "../../server/src/internal/limit/RateLimit.js"
export * as PendingSettlement from "../../server/src/internal/PendingSettlement.js"
