/**
 * The service's endpoints: paths, the key permission each needs, and their limits.
 *
 * @since 0.2.0
 */
import { depositDefaultWindowMillis } from "@broker-history/core/protocol/Endpoint"
import * as Duration from "effect/Duration"

/**
 * Everything of `@broker-history/core/protocol/Endpoint`: the `Endpoint` model and its `Permission`,
 * the endpoints (`transferHistory`, `depositHistory`, `subAccountList`), `timePath`, `pingPath`,
 * `apiKeyHeader`, `depositDefaultWindowMillis` and the `recvWindow` bounds.
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Endpoint.depositHistory.permission, "SPOT_DEPOSIT_READ")
 * assert.strictEqual(Endpoint.transferHistory.maxLimit, 500)
 * assert.strictEqual(Endpoint.recvWindow.max, 60000)
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/protocol/Endpoint"

/**
 * The default deposit window when neither bound is sent, and the reference server's default maximum
 * deposit window: 10 days.
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/domain-effect4"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(Endpoint.depositDefaultWindow), 10)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const depositDefaultWindow: Duration.Duration = Duration.millis(depositDefaultWindowMillis)
