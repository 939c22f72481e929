/**
 * The service's endpoints: paths, the key permission each needs, and their limits (durations in
 * milliseconds).
 *
 * @since 0.2.0
 */
/**
 * A signed endpoint: a history endpoint, or the broker's sub-account list.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * const describe = (e: Endpoint.Endpoint) => `GET ${e.path} (${e.permission}, up to ${e.maxLimit} per page)`
 * assert.strictEqual(
 *   describe(Endpoint.depositHistory),
 *   "GET /api/v3/broker/capital/deposit/subHisrec (SPOT_DEPOSIT_READ, up to 1000 per page)"
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Endpoint {
  readonly name: "transferHistory" | "depositHistory" | "subAccountList"
  readonly path: string
  readonly permission: Permission
  readonly defaultLimit: number
  readonly maxLimit: number
}

/**
 * API-key permissions the service knows.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * const needed: ReadonlyArray<Endpoint.Permission> = [
 *   Endpoint.transferHistory.permission,
 *   Endpoint.depositHistory.permission
 * ]
 * assert.deepStrictEqual(needed, ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Permission = "SPOT_TRANSFER_READ" | "SPOT_DEPOSIT_READ"

/**
 * `GET /api/v3/broker/sub-account/universalTransfer`: universal transfer history.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(Endpoint.transferHistory.path, "/api/v3/broker/sub-account/universalTransfer")
 * assert.strictEqual(Endpoint.transferHistory.maxLimit, 500)
 * ```
 *
 * @since 0.2.0
 * @category constants
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
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(Endpoint.depositHistory.defaultLimit, 20)
 * assert.strictEqual(Endpoint.depositHistory.maxLimit, 1000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const depositHistory: Endpoint = {
  name: "depositHistory",
  path: "/api/v3/broker/capital/deposit/subHisrec",
  permission: "SPOT_DEPOSIT_READ",
  defaultLimit: 20,
  maxLimit: 1000
}

/**
 * `GET /api/v3/broker/sub-account/list`: the broker's sub-accounts, by name, with their creation
 * times (`SubAccount`), paged (`page` from 1, `limit` default 10, at most 200).
 *
 * The model names one permission per endpoint, the one the client asks a refused key to hold: the
 * list is read to plan transfer streams, which need `SPOT_TRANSFER_READ` anyway. The reference
 * service accepts a key holding either history permission (docs/wire-contract.md, "Endpoints").
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(Endpoint.subAccountList.path, "/api/v3/broker/sub-account/list")
 * assert.strictEqual(Endpoint.subAccountList.defaultLimit, 10)
 * assert.strictEqual(Endpoint.subAccountList.maxLimit, 200)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const subAccountList: Endpoint = {
  name: "subAccountList",
  path: "/api/v3/broker/sub-account/list",
  permission: "SPOT_TRANSFER_READ",
  defaultLimit: 10,
  maxLimit: 200
}

/**
 * `GET /api/v3/time` → `{"serverTime": <ms>}` (unsigned).
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(new URL(Endpoint.timePath, "https://api.mexc.com").href, "https://api.mexc.com/api/v3/time")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const timePath = "/api/v3/time"

/**
 * `GET /api/v3/ping` → `{}` (unsigned).
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(Endpoint.pingPath, "/api/v3/ping")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const pingPath = "/api/v3/ping"

/**
 * The header that carries the API key.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * const headers = { [Endpoint.apiKeyHeader]: "my-api-key" }
 * assert.deepStrictEqual(headers, { "X-MEXC-APIKEY": "my-api-key" })
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const apiKeyHeader = "X-MEXC-APIKEY"

/**
 * The default deposit window when neither bound is sent, and the reference server's default maximum
 * deposit window: 10 days, in milliseconds.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * assert.strictEqual(Endpoint.depositDefaultWindowMillis, 10 * 24 * 60 * 60 * 1000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const depositDefaultWindowMillis = 10 * 24 * 60 * 60 * 1000

/**
 * `recvWindow` bounds in milliseconds: default 5000, allowed 1..60000.
 *
 * @example
 * ```ts
 * import * as Endpoint from "@broker-history/core/protocol/Endpoint"
 *
 * const inRange = (ms: number) => ms >= Endpoint.recvWindow.min && ms <= Endpoint.recvWindow.max
 * assert.strictEqual(inRange(Endpoint.recvWindow.default), true)
 * assert.strictEqual(inRange(60001), false)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const recvWindow = { default: 5000, min: 1, max: 60000 } as const
