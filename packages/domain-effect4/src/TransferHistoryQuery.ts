/**
 * The parameters of one transfer-history request (docs/wire-contract.md, "Parameters").
 *
 * @since 0.2.0
 */
import * as Parameters from "@broker-history/core/protocol/Parameters"
import * as Schema from "effect/Schema"
import * as QueryViolation from "./QueryViolation.js"

/**
 * A transfer-history query.
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const toSubAccount: TransferHistoryQuery.TransferHistoryQuery = {
 *   fromAccountType: "SPOT",
 *   toAccountType: "SPOT",
 *   toAccount: "sub@test.com",
 *   startTime: 1644400000000,
 *   endTime: 1644489390087
 * }
 * assert.ok(Result.isSuccess(TransferHistoryQuery.validate(toSubAccount)))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type TransferHistoryQuery = Parameters.TransferHistoryQuery

/**
 * Schema of a transfer-history query. Numbers are numbers here; they are sent as base-10 text.
 *
 * - `fromAccountType`, `toAccountType`: required, non-empty (`SPOT`, `FUTURES` documented).
 * - `fromAccount`, `toAccount`: optional; omitted means the master account.
 * - `clientTranId`: exactly 32 ASCII letters or digits.
 * - `startTime`, `endTime`: Unix ms, inclusive, `startTime <= endTime`.
 * - `page`: integer >= 1 (service default 1); `limit`: integer 1..500 (service default 500).
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(TransferHistoryQuery.TransferHistoryQuery)
 * assert.ok(Result.isSuccess(decode({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })))
 * assert.ok(Result.isFailure(decode({ fromAccountType: "SPOT", toAccountType: "FUTURES", clientTranId: "short" })))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const TransferHistoryQuery = Schema.Struct({
  fromAccountType: QueryViolation.requiredText,
  toAccountType: QueryViolation.requiredText,
  fromAccount: Schema.optional(QueryViolation.nonEmptyText("omit it to mean the master account")),
  toAccount: Schema.optional(QueryViolation.nonEmptyText("omit it to mean the master account")),
  clientTranId: Schema.optional(
    Schema.String.annotate({ message: "must be text" }).check(
      Schema.isPattern(/^[A-Za-z0-9]{32}$/, { message: "must be exactly 32 ASCII letters or digits" })
    )
  ),
  startTime: Schema.optional(QueryViolation.millis),
  endTime: Schema.optional(QueryViolation.millis),
  page: Schema.optional(QueryViolation.integer(1)),
  limit: Schema.optional(QueryViolation.integer(1, 500))
}).check(Schema.makeFilter(QueryViolation.timeOrder))

/**
 * Integer-valued parameters (sent as base-10 text).
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(TransferHistoryQuery.integerParameters, ["startTime", "endTime", "page", "limit"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const integerParameters = Parameters.transferHistory.integers

const rules = QueryViolation.rules(TransferHistoryQuery, integerParameters, Parameters.transferHistory.order)

/**
 * Checks every rule; the first broken rule names the parameter.
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * assert.deepStrictEqual(
 *   TransferHistoryQuery.validate({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 501 }),
 *   Result.fail({ parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const validate: QueryViolation.Rules<TransferHistoryQuery>["validate"] = rules.validate

/**
 * The business parameters in the order they are signed and sent (the exchange's documented order); only the
 * parameters present in the query.
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(
 *   TransferHistoryQuery.toParams({ limit: 500, page: 1, toAccountType: "FUTURES", fromAccountType: "SPOT" }),
 *   [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"], ["page", "1"], ["limit", "500"]]
 * )
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const toParams: QueryViolation.Rules<TransferHistoryQuery>["toParams"] = rules.toParams

/**
 * Reads the business parameters as received in text (server side).
 *
 * @example
 * ```ts
 * import { TransferHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const query = TransferHistoryQuery.fromText({ fromAccountType: "SPOT", toAccountType: "FUTURES", page: "2" })
 * assert.deepStrictEqual(Result.map(query, (q) => q.page), Result.succeed(2))
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromText: QueryViolation.Rules<TransferHistoryQuery>["fromText"] = rules.fromText
