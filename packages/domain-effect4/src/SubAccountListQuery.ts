/**
 * The parameters of one request to the broker's sub-account list (docs/wire-contract.md,
 * "Parameters").
 *
 * @since 0.2.0
 */
import * as Parameters from "@broker-history/core/protocol/Parameters"
import * as Schema from "effect/Schema"
import * as QueryViolation from "./QueryViolation.js"

/**
 * A sub-account list query: every field optional (`{}` is the first page of 10).
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const second: SubAccountListQuery.SubAccountListQuery = { page: 2, limit: 200 }
 * assert.ok(Result.isSuccess(SubAccountListQuery.validate(second)))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type SubAccountListQuery = Parameters.SubAccountListQuery

/**
 * Schema of a sub-account list query.
 *
 * - `subAccount`: optional exact name, non-empty, without surrounding spaces.
 * - `page`: integer >= 1 (service default 1); `limit`: integer 1..200 (service default 10).
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(SubAccountListQuery.SubAccountListQuery)
 * assert.deepStrictEqual(decode({ subAccount: "mexc1" }), Result.succeed({ subAccount: "mexc1" }))
 * assert.ok(Result.isFailure(decode({ limit: 201 })))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const SubAccountListQuery = Schema.Struct({
  subAccount: Schema.optional(QueryViolation.nonEmptyText("omit it to list every sub-account")),
  page: Schema.optional(QueryViolation.integer(1)),
  limit: Schema.optional(QueryViolation.integer(1, 200))
})

/**
 * Integer-valued parameters (sent as base-10 text).
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(SubAccountListQuery.integerParameters, ["page", "limit"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const integerParameters = Parameters.subAccountList.integers

const rules = QueryViolation.rules(SubAccountListQuery, integerParameters, Parameters.subAccountList.order)

/**
 * Checks every rule (an unknown parameter is an error); the first broken rule names the parameter.
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * assert.deepStrictEqual(
 *   SubAccountListQuery.validate({ limit: 500 }),
 *   Result.fail({ parameter: "limit", rule: "must be an integer from 1 to 200", kind: "invalid" })
 * )
 * assert.deepStrictEqual(
 *   SubAccountListQuery.validate({ name: "mexc1" }),
 *   Result.fail({ parameter: "name", rule: "is not a parameter of this endpoint", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const validate: QueryViolation.Rules<SubAccountListQuery>["validate"] = rules.validate

/**
 * The business parameters in the order they are signed and sent.
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(SubAccountListQuery.toParams({ limit: 200, page: 3 }), [
 *   ["page", "3"],
 *   ["limit", "200"]
 * ])
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const toParams: QueryViolation.Rules<SubAccountListQuery>["toParams"] = rules.toParams

/**
 * Reads the business parameters as received in text (server side).
 *
 * @example
 * ```ts
 * import { SubAccountListQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * assert.deepStrictEqual(SubAccountListQuery.fromText({ page: "2" }), Result.succeed({ page: 2 }))
 * assert.deepStrictEqual(
 *   SubAccountListQuery.fromText({ limit: "ten" }),
 *   Result.fail({ parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromText: QueryViolation.Rules<SubAccountListQuery>["fromText"] = rules.fromText
