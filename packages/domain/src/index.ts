/**
 * @broker-history/domain: schemas and pure protocol functions shared by client and server.
 *
 * @since 0.1.0
 */

/** Exact decimal text. */
export * as Decimal from "./Decimal.js"
/** Deposit records (SPEC.md §2.2). */
export * as DepositRecord from "./DepositRecord.js"
/** Deposit-history query parameters. */
export * as DepositHistoryQuery from "./DepositHistoryQuery.js"
/** Endpoints, permissions and limits. */
export * as Endpoint from "./Endpoint.js"
/** The `{code,msg}` failure body and the error table. */
export * as ErrorBody from "./ErrorBody.js"
/** Tolerant field schemas and id ordering. */
export * as Field from "./Field.js"
/** Canonical query strings. */
export * as QueryString from "./QueryString.js"
/** Broken query rules. */
export * as QueryViolation from "./QueryViolation.js"
/** HMAC-SHA256 request signatures. */
export * as Signature from "./Signature.js"
/** Transfer records (SPEC.md §2.1). */
export * as TransferRecord from "./TransferRecord.js"
/** Transfer-history query parameters. */
export * as TransferHistoryQuery from "./TransferHistoryQuery.js"
