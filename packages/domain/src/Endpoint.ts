/**
 * The service's endpoints: paths, the key permission each needs, and their limits.
 *
 * @since 0.1.0
 */
import * as Core from "@broker-history/core/protocol/Endpoint"
import * as Duration from "effect/Duration"

/**
 * The endpoints, from `@broker-history/core/protocol/Endpoint`: `Endpoint`, `Permission`,
 * `transferHistory`, `depositHistory`, `subAccountList`, `timePath`, `pingPath`, `apiKeyHeader`,
 * `recvWindow` and `depositDefaultWindowMillis` (the window below as milliseconds).
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/domain"
 *
 * assert.strictEqual(Endpoint.transferHistory.maxLimit, 500)
 * assert.strictEqual(Endpoint.apiKeyHeader, "X-MEXC-APIKEY")
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export * from "@broker-history/core/protocol/Endpoint"

/**
 * The default deposit window when neither bound is sent, and the reference server's default maximum
 * deposit window: 10 days.
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/domain"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(Endpoint.depositDefaultWindow), 10)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const depositDefaultWindow: Duration.Duration = Duration.millis(Core.depositDefaultWindowMillis)
