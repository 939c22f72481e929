/**
 * Each endpoint's query (docs/wire-contract.md, "Parameters"): its fields as a type, its parameters
 * in the order they are signed and sent (the exchange's documented order), and which of them are
 * integers (sent as base-10 text). Each line's domain states the rules of each query as a schema of
 * its own and writes and reads the parameters with these.
 *
 * @since 0.2.0
 */
import type * as QueryViolation from "../query/QueryViolation.js"

/**
 * The parameters of one endpoint: all of them in the order they are signed and sent, and the
 * integer ones.
 *
 * @example
 * ```ts
 * import * as Parameters from "@broker-history/core/protocol/Parameters"
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * const toParams = QueryString.fields<Parameters.DepositHistoryQuery>(Parameters.depositHistory.order)
 * assert.deepStrictEqual(toParams({ page: 2, coin: "USDT" }), [["coin", "USDT"], ["page", "2"]])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Parameters<Q> {
  readonly order: ReadonlyArray<keyof Q & string>
  readonly integers: ReadonlyArray<keyof Q & string>
}

/**
 * A transfer-history query.
 *
 * @example
 * ```ts
 * import type * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * const toSubAccount: Parameters.TransferHistoryQuery = {
 *   fromAccountType: "SPOT",
 *   toAccountType: "SPOT",
 *   toAccount: "sub@test.com",
 *   startTime: 1644400000000,
 *   endTime: 1644489390087
 * }
 * assert.strictEqual(toSubAccount.fromAccount, undefined) // the master account
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferHistoryQuery extends QueryViolation.WindowPage {
  readonly fromAccountType: "SPOT" | "FUTURES" | (string & {})
  readonly toAccountType: "SPOT" | "FUTURES" | (string & {})
  readonly fromAccount?: string | undefined
  readonly toAccount?: string | undefined
  readonly clientTranId?: string | undefined
}

/**
 * A deposit-history query.
 *
 * @example
 * ```ts
 * import type * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * const successfulUsdt: Parameters.DepositHistoryQuery = { coin: "USDT", status: "5", limit: 1000 }
 * assert.strictEqual(successfulUsdt.page, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface DepositHistoryQuery extends QueryViolation.WindowPage {
  readonly coin?: string | undefined
  readonly status?: string | undefined
}

/**
 * A sub-account list query: every field optional (`{}` is the first page of 10).
 *
 * @example
 * ```ts
 * import type * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * const second: Parameters.SubAccountListQuery = { page: 2, limit: 200 }
 * assert.strictEqual(second.subAccount, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountListQuery {
  readonly subAccount?: string | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}

/**
 * The parameters of a transfer-history query.
 *
 * @example
 * ```ts
 * import * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * assert.deepStrictEqual(Parameters.transferHistory.integers, ["startTime", "endTime", "page", "limit"])
 * assert.strictEqual(Parameters.transferHistory.order[0], "clientTranId")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const transferHistory = {
  order: [
    "clientTranId",
    "fromAccount",
    "toAccount",
    "fromAccountType",
    "toAccountType",
    "startTime",
    "endTime",
    "page",
    "limit"
  ],
  integers: ["startTime", "endTime", "page", "limit"]
} as const satisfies Parameters<TransferHistoryQuery>

/**
 * The parameters of a deposit-history query.
 *
 * @example
 * ```ts
 * import * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * assert.deepStrictEqual(Parameters.depositHistory.order, ["coin", "status", "startTime", "endTime", "limit", "page"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const depositHistory = {
  order: ["coin", "status", "startTime", "endTime", "limit", "page"],
  integers: ["startTime", "endTime", "limit", "page"]
} as const satisfies Parameters<DepositHistoryQuery>

/**
 * The parameters of a sub-account list query.
 *
 * @example
 * ```ts
 * import * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * assert.deepStrictEqual(Parameters.subAccountList, { order: ["subAccount", "page", "limit"], integers: ["page", "limit"] })
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const subAccountList = {
  order: ["subAccount", "page", "limit"],
  integers: ["page", "limit"]
} as const satisfies Parameters<SubAccountListQuery>
