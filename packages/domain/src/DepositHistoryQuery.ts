/**
 * The parameters of one deposit-history request (docs/wire-contract.md, "Parameters").
 *
 * @since 0.1.0
 */
import * as Parameters from "@broker-history/core/protocol/Parameters"
import * as Schema from "effect/Schema"
import * as QueryViolation from "./QueryViolation.js"

/**
 * A deposit-history query.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * const successfulUsdt: DepositHistoryQuery.DepositHistoryQuery = { coin: "USDT", status: "5", limit: 1000 }
 * assert.ok(Either.isRight(DepositHistoryQuery.validate(successfulUsdt)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type DepositHistoryQuery = Parameters.DepositHistoryQuery

/**
 * Schema of a deposit-history query.
 *
 * - `coin`, `status`: optional exact filters (status as the service's code text, e.g. `"5"`).
 * - `startTime`, `endTime`: Unix ms, inclusive, `startTime <= endTime`; the service defaults them to
 *   now − 10 days and now.
 * - `limit`: integer 1..1000 (service default 20); `page`: integer >= 1 (default 1).
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownEither(DepositHistoryQuery.DepositHistoryQuery)
 * assert.deepStrictEqual(decode({ coin: "USDT", limit: 1000 }), Either.right({ coin: "USDT", limit: 1000 }))
 * assert.ok(Either.isLeft(decode({ startTime: 2, endTime: 1 })))
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const DepositHistoryQuery = Schema.Struct({
  coin: Schema.optional(QueryViolation.nonEmptyText("omit it to mean every coin")),
  status: Schema.optional(QueryViolation.nonEmptyText("omit it to mean every status")),
  startTime: Schema.optional(QueryViolation.millis),
  endTime: Schema.optional(QueryViolation.millis),
  limit: Schema.optional(QueryViolation.integer(1, 1000)),
  page: Schema.optional(QueryViolation.integer(1))
}).pipe(Schema.filter(QueryViolation.timeOrder))

/**
 * Integer-valued parameters (sent as base-10 text).
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 *
 * assert.deepStrictEqual(DepositHistoryQuery.integerParameters, ["startTime", "endTime", "limit", "page"])
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const integerParameters = Parameters.depositHistory.integers

const rules = QueryViolation.rules(DepositHistoryQuery, integerParameters, Parameters.depositHistory.order)

/**
 * Checks every rule; the first broken rule names the parameter.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(
 *   DepositHistoryQuery.validate({ limit: 0 }),
 *   Either.left({ parameter: "limit", rule: "must be an integer from 1 to 1000", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const validate: QueryViolation.Rules<DepositHistoryQuery>["validate"] = rules.validate

/**
 * The business parameters in the order they are signed and sent (the exchange's documented order).
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 *
 * assert.deepStrictEqual(DepositHistoryQuery.toParams({ page: 1, coin: "USDT", limit: 20 }), [
 *   ["coin", "USDT"],
 *   ["limit", "20"],
 *   ["page", "1"]
 * ])
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const toParams: QueryViolation.Rules<DepositHistoryQuery>["toParams"] = rules.toParams

/**
 * Reads the business parameters as received in text (server side).
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * const query = DepositHistoryQuery.fromText({ coin: "USDT", limit: "1000" })
 * assert.deepStrictEqual(Either.map(query, (q) => q.limit), Either.right(1000))
 * assert.deepStrictEqual(
 *   DepositHistoryQuery.fromText({ limit: "20.5" }),
 *   Either.left({ parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromText: QueryViolation.Rules<DepositHistoryQuery>["fromText"] = rules.fromText
