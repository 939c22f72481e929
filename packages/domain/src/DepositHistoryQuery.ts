/**
 * The parameters of one deposit-history request (SPEC.md §4.2, DECISIONS.md "Parameters").
 *
 * @since 0.1.0
 */
import type * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Param } from "./QueryString.js"
import * as QueryViolation from "./QueryViolation.js"

/**
 * Schema of a deposit-history query.
 *
 * - `coin`, `status`: optional exact filters (status as the service's code text, e.g. `"5"`).
 * - `startTime`, `endTime`: Unix ms, inclusive, `startTime <= endTime`; the service defaults them to
 *   now − 10 days and now.
 * - `limit`: integer 1..1000 (service default 20); `page`: integer >= 1 (default 1).
 *
 * @example
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * const q: DepositHistoryQuery.DepositHistoryQuery = { coin: "USDT", limit: 1000 }
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
 * A deposit-history query.
 *
 * @example
 * import type { DepositHistoryQuery } from "@broker-history/domain"
 * const q: DepositHistoryQuery.DepositHistoryQuery = { coin: "USDT", status: "5" }
 */
export interface DepositHistoryQuery {
  readonly coin?: string | undefined
  readonly status?: string | undefined
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
  readonly limit?: number | undefined
  readonly page?: number | undefined
}

/**
 * Integer-valued parameters (sent as base-10 text).
 *
 * @example
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * DepositHistoryQuery.integerParameters.includes("page") // true
 */
export const integerParameters = ["startTime", "endTime", "limit", "page"] as const

/**
 * Checks every rule; the first broken rule names the parameter.
 *
 * @example
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * DepositHistoryQuery.validate({ limit: 0 })
 * // Either.left({ parameter: "limit", rule: "must be an integer from 1 to 1000", kind: "invalid" })
 */
export const validate = (input: unknown): Either.Either<DepositHistoryQuery, QueryViolation.QueryViolation> =>
  QueryViolation.validate(DepositHistoryQuery, input)

/**
 * The business parameters in the order they are signed and sent (SPEC.md table order).
 *
 * @example
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * DepositHistoryQuery.toParams({ coin: "USDT", limit: 20, page: 1 })
 * // [["coin","USDT"],["limit","20"],["page","1"]]
 */
export const toParams = (q: DepositHistoryQuery): Array<Param> => {
  const out: Array<Param> = []
  if (q.coin !== undefined) out.push(["coin", q.coin])
  if (q.status !== undefined) out.push(["status", q.status])
  if (q.startTime !== undefined) out.push(["startTime", String(q.startTime)])
  if (q.endTime !== undefined) out.push(["endTime", String(q.endTime)])
  if (q.limit !== undefined) out.push(["limit", String(q.limit)])
  if (q.page !== undefined) out.push(["page", String(q.page)])
  return out
}

/**
 * Reads the business parameters as received in text (server side).
 *
 * @example
 * import { DepositHistoryQuery } from "@broker-history/domain"
 * DepositHistoryQuery.fromText({ coin: "USDT", limit: "1000" })
 */
export const fromText = (
  params: Readonly<Record<string, string>>
): Either.Either<DepositHistoryQuery, QueryViolation.QueryViolation> =>
  QueryViolation.fromText(DepositHistoryQuery, integerParameters, params)
