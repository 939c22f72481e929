/**
 * The service's endpoints: paths, the key permission each needs, and their limits.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"

/**
 * A signed history endpoint.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.transferHistory.path // "/api/v3/broker/sub-account/universalTransfer"
 */
export interface Endpoint {
  readonly name: "transferHistory" | "depositHistory"
  readonly path: string
  readonly permission: Permission
  readonly defaultLimit: number
  readonly maxLimit: number
}

/**
 * API-key permissions the service knows.
 *
 * @example
 * import type { Endpoint } from "@broker-history/domain"
 * const p: Endpoint.Permission = "SPOT_DEPOSIT_READ"
 */
export type Permission = "SPOT_TRANSFER_READ" | "SPOT_DEPOSIT_READ"

/**
 * `GET /api/v3/broker/sub-account/universalTransfer`: universal transfer history.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.transferHistory.maxLimit // 500
 */
export const transferHistory: Endpoint = {
  name: "transferHistory",
  path: "/api/v3/broker/sub-account/universalTransfer",
  permission: "SPOT_TRANSFER_READ",
  defaultLimit: 500,
  maxLimit: 500
}

/**
 * `GET /api/v3/broker/capital/deposit/subHisrec`: sub-account deposit history.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.depositHistory.defaultLimit // 20
 */
export const depositHistory: Endpoint = {
  name: "depositHistory",
  path: "/api/v3/broker/capital/deposit/subHisrec",
  permission: "SPOT_DEPOSIT_READ",
  defaultLimit: 20,
  maxLimit: 1000
}

/**
 * `GET /api/v3/time` → `{"serverTime": <ms>}` (unsigned).
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.timePath // "/api/v3/time"
 */
export const timePath = "/api/v3/time"

/**
 * `GET /api/v3/ping` → `{}` (unsigned).
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.pingPath // "/api/v3/ping"
 */
export const pingPath = "/api/v3/ping"

/**
 * The header that carries the API key.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.apiKeyHeader // "X-MEXC-APIKEY"
 */
export const apiKeyHeader = "X-MEXC-APIKEY"

/**
 * The default deposit window when neither bound is sent, and the reference server's default maximum
 * deposit window: 10 days.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.depositDefaultWindow // Duration.days(10)
 */
export const depositDefaultWindow: Duration.Duration = Duration.days(10)

/**
 * `recvWindow` bounds in milliseconds: default 5000, allowed 1..60000.
 *
 * @example
 * import { Endpoint } from "@broker-history/domain"
 * Endpoint.recvWindow.max // 60000
 */
export const recvWindow = { default: 5000, min: 1, max: 60000 } as const
