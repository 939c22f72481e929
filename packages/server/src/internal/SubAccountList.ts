/**
 * The broker's sub-account list endpoint as values: its path and its parameters read and checked into
 * a store filter and page (the store pages by creation time, then name; `WireFormat.subAccountList`
 * shapes the answer).
 *
 * @internal
 */
import { ErrorBody } from "@broker-history/domain"
import * as Either from "effect/Either"
import type * as HistoryQuery from "../HistoryQuery.js"
import * as RawQuery from "../RawQuery.js"
import type * as Store from "../Store.js"

/** `GET /api/v3/broker/sub-account/list`. */
export const path = "/api/v3/broker/sub-account/list"

const defaultLimit = 10
const maxLimit = 200
const positiveInteger = /^[1-9][0-9]{0,8}$/

/**
 * Reads `subAccount`, `page` (from 1) and `limit` (default 10, at most 200), checked as the history
 * endpoints check theirs: decodable, known, not repeated, then each rule (33333 for any of them).
 */
export const readQuery = (
  params: ReadonlyArray<RawQuery.Param>
): Either.Either<HistoryQuery.Read<Store.SubAccountFilter>, ErrorBody.ErrorRow> => {
  const record: Record<string, string> = Object.create(null)
  for (const p of params) {
    if (p.name === undefined || p.value === undefined) {
      return Either.left(
        ErrorBody.Errors.invalidParameter(`${RawQuery.label(p.name ?? p.rawName)} is not valid percent-encoded UTF-8`)
      )
    }
    if (!["subAccount", "page", "limit"].includes(p.name)) {
      return Either.left(
        ErrorBody.Errors.invalidParameter(`${RawQuery.label(p.name)} is not a parameter of this endpoint`)
      )
    }
    if (p.name in record) return Either.left(ErrorBody.Errors.invalidParameter(`${p.name} is repeated`))
    record[p.name] = p.value
  }
  const page = record.page === undefined ? 1 : positiveInteger.test(record.page) ? Number(record.page) : NaN
  if (Number.isNaN(page)) return Either.left(ErrorBody.Errors.invalidParameter("page must be an integer >= 1"))
  const limit = record.limit === undefined
    ? defaultLimit
    : positiveInteger.test(record.limit)
    ? Number(record.limit)
    : NaN
  if (!(limit <= maxLimit)) {
    return Either.left(
      ErrorBody.Errors.invalidParameter(`limit must be an integer from 1 to ${maxLimit}`)
    )
  }
  // An empty `subAccount` is no filter, as an omitted one.
  const name = record.subAccount === undefined || record.subAccount === "" ? undefined : record.subAccount
  return Either.right({ filter: { name }, page: { page, limit }, matchesNothing: false })
}
