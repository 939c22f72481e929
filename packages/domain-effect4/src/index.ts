/**
 * `@broker-history/domain-effect4`: the Effect 4 schemas of the broker history API, on the pure
 * protocol functions of `@broker-history/core`.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./Decimal.js"

/**
 * Exact decimal text.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Decimal.isDecimalText("0.10000000"), true)
 * ```
 *
 * @since 0.2.0
 */
export * as Decimal from "./Decimal.js"
/**
 * Deposit records.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(DepositRecord.statusName("5"), "SUCCESS")
 * ```
 *
 * @since 0.2.0
 */
export * as DepositRecord from "./DepositRecord.js"
/**
 * Deposit-history query parameters.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * assert.ok(Result.isSuccess(DepositHistoryQuery.validate({ coin: "USDT", limit: 1000 })))
 * ```
 *
 * @since 0.2.0
 */
export * as DepositHistoryQuery from "./DepositHistoryQuery.js"
/**
 * Endpoints, permissions and limits.
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Endpoint.depositHistory.permission, "SPOT_DEPOSIT_READ")
 * ```
 *
 * @since 0.2.0
 */
export * as Endpoint from "./Endpoint.js"
/**
 * The `{code,msg}` failure body and the error table.
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(ErrorBody.Errors.tooManyRequests.code, ErrorBody.Code.TooManyRequests)
 * ```
 *
 * @since 0.2.0
 */
export * as ErrorBody from "./ErrorBody.js"
/**
 * Tolerant field schemas and id ordering.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Field.compareIds("9", "10"), -1)
 * ```
 *
 * @since 0.2.0
 */
export * as Field from "./Field.js"
/**
 * Canonical query strings.
 *
 * @example
 * ```ts
 * import { QueryString } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(QueryString.make([["coin", "USDT"], ["limit", "20"]]), "coin=USDT&limit=20")
 * ```
 *
 * @since 0.2.0
 */
export * as QueryString from "./QueryString.js"
/**
 * Broken query rules.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(
 *   QueryViolation.format({ parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" }),
 *   "limit must be an integer from 1 to 500"
 * )
 * ```
 *
 * @since 0.2.0
 */
export * as QueryViolation from "./QueryViolation.js"
/**
 * HMAC-SHA256 request signatures.
 *
 * @example
 * ```ts
 * import { Signature } from "@broker-history/domain-effect4"
 *
 * const sign = await Signature.hmacSha256("secret")
 * assert.ok(Signature.isSignature(await sign("a=1&timestamp=1644489390087")))
 * ```
 *
 * @since 0.2.0
 */
export * as Signature from "./Signature.js"
/**
 * Listed sub-accounts: the record and the list's page.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(SubAccount.SubAccountPage)({
 *   code: "0",
 *   message: "",
 *   data: [{ subAccount: "mexc1", note: "1", timestamp: "1597026383085" }]
 * })
 * assert.strictEqual(page[0].timestamp, 1597026383085)
 * ```
 *
 * @since 0.2.0
 */
export * as SubAccount from "./SubAccount.js"
/**
 * Sub-account list query parameters.
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(SubAccountListQuery.toParams({ page: 1, limit: 200 }), [["page", "1"], ["limit", "200"]])
 * ```
 *
 * @since 0.2.0
 */
export * as SubAccountListQuery from "./SubAccountListQuery.js"
/**
 * Transfer records.
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(TransferRecord.TransferPage)([{
 *   tranId: 1,
 *   asset: "BTC",
 *   amount: "1",
 *   timestamp: 1
 * }])
 * assert.strictEqual(page[0].tranId, "1")
 * ```
 *
 * @since 0.2.0
 */
export * as TransferRecord from "./TransferRecord.js"
/**
 * Transfer-history query parameters.
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(TransferHistoryQuery.toParams({ fromAccountType: "SPOT", toAccountType: "FUTURES" }), [
 *   ["fromAccountType", "SPOT"],
 *   ["toAccountType", "FUTURES"]
 * ])
 * ```
 *
 * @since 0.2.0
 */
export * as TransferHistoryQuery from "./TransferHistoryQuery.js"
