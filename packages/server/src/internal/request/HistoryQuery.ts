/**
 * The business parameters of a verified request, read into a store filter and page: decoding,
 * repeated and unknown parameters, the domain's query rules, the server's accepted account types
 * (its own, not the domain's list), the deposit default window and the maximum window per history
 * endpoint, and the sub-account list's name and page. Pure: `now` is an input.
 *
 * @internal
 */
import {
  DepositHistoryQuery,
  Endpoint,
  ErrorBody,
  QueryViolation,
  SubAccountListQuery,
  TransferHistoryQuery
} from "@broker-history/domain"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import type { DepositFilter, Page, SubAccountFilter, TransferFilter } from "../../Store.js"
import * as Accounts from "../Accounts.js"
import type * as RawQuery from "./RawQuery.js"
import { label } from "./RawQuery.js"

/** The longest `endTime - startTime` each endpoint accepts; `undefined` means no maximum. */
export interface MaxWindow {
  readonly transfers?: Duration.DurationInput | undefined
  readonly deposits?: Duration.DurationInput | undefined
}

/** The reference server's maximum windows: transfers unlimited, deposits 10 days. */
export const defaultMaxWindow: MaxWindow = { transfers: undefined, deposits: Endpoint.depositDefaultWindow }

/**
 * What to read: the store filter and page, or `matchesNothing` when a filter value can match no
 * stored record (a deposit `status` that is not a status code's text).
 */
export interface Read<F> {
  readonly filter: F
  readonly page: Page
  readonly matchesNothing: boolean
}

/**
 * How one endpoint's parameters are read: the parameters as received, the time now (Unix ms) for the
 * defaults, and the maximum windows; the store filter and page, or the error row to answer.
 */
export type Reader<F> = (
  params: ReadonlyArray<RawQuery.Param>,
  now: number,
  maxWindow: MaxWindow
) => Either.Either<Read<F>, ErrorBody.ErrorRow>

// A query's schema: a struct, or a struct with a filter over it (the history queries' time order).
type QuerySchema = { readonly fields: object } | { readonly from: { readonly fields: object } }

const fieldsOf = (schema: QuerySchema): ReadonlyArray<string> =>
  Object.keys("fields" in schema ? schema.fields : schema.from.fields)

/** Decoded, distinct, known parameters as a record, or the first 33333 among them. */
const toRecord = (
  params: ReadonlyArray<RawQuery.Param>,
  known: ReadonlyArray<string>
): Either.Either<Record<string, string>, ErrorBody.ErrorRow> => {
  // A null-prototype record: a parameter named `__proto__` must stay an ordinary (unknown) name.
  const record: Record<string, string> = Object.create(null)
  for (const p of params) {
    if (p.name === undefined || p.value === undefined) {
      return Either.left(
        ErrorBody.Errors.invalidParameter(`${label(p.name ?? p.rawName)} is not valid percent-encoded UTF-8`)
      )
    }
    if (!known.includes(p.name)) {
      return Either.left(ErrorBody.Errors.invalidParameter(`${label(p.name)} is not a parameter of this endpoint`))
    }
    if (p.name in record) return Either.left(ErrorBody.Errors.invalidParameter(`${p.name} is repeated`))
    record[p.name] = p.value
  }
  return Either.right({ ...record })
}

const violation = (v: QueryViolation.QueryViolation): ErrorBody.ErrorRow =>
  v.kind === "missing"
    ? ErrorBody.Errors.mandatoryParameter(v.parameter)
    : ErrorBody.Errors.invalidParameter(QueryViolation.format(v))

// An endpoint's reader: its parameters read by the query's own rules (the parameters of `schema`,
// then `fromText`), then made into a store filter and page by `read`.
const reader = <Q, F>(
  schema: QuerySchema,
  fromText: (params: Readonly<Record<string, string>>) => Either.Either<Q, QueryViolation.QueryViolation>,
  read: (query: Q, now: number, maxWindow: MaxWindow) => Either.Either<Read<F>, ErrorBody.ErrorRow>
): Reader<F> => {
  const known = fieldsOf(schema)
  return (params, now, maxWindow) =>
    Either.flatMap(
      Either.flatMap(toRecord(params, known), (record) => Either.mapLeft(fromText(record), violation)),
      (query) => read(query, now, maxWindow)
    )
}

const windowRule = (
  startTime: number,
  endTime: number,
  max: Duration.DurationInput | undefined
): ErrorBody.ErrorRow | undefined => {
  if (startTime > endTime) return ErrorBody.Errors.invalidParameter("startTime must not be after endTime")
  if (max === undefined) return undefined
  const maxMillis = Duration.toMillis(Duration.decode(max))
  return endTime - startTime > maxMillis
    ? ErrorBody.Errors.invalidParameter(
      `endTime - startTime must not exceed ${maxMillis} ms (${Duration.format(Duration.millis(maxMillis))})`
    )
    : undefined
}

/**
 * Reads transfer-history parameters into a store filter and page, accepting `accountTypes` (and no
 * other) as `fromAccountType` and `toAccountType`: another is refused with 33333 naming the accepted
 * ones. Omitted `fromAccount`/`toAccount` select the master account (`null`), and with a maximum window
 * configured a missing `endTime` is now and a missing `startTime` is `endTime` minus the maximum.
 */
export const transfersAccepting = (accountTypes: ReadonlyArray<string>): Reader<TransferFilter> =>
  reader(
    TransferHistoryQuery.TransferHistoryQuery,
    TransferHistoryQuery.fromText,
    (q, now, maxWindow) =>
      Either.gen(function*() {
        for (const name of ["fromAccountType", "toAccountType"] as const) {
          if (!accountTypes.includes(q[name])) {
            return yield* Either.left(
              ErrorBody.Errors.invalidParameter(`${name} must be ${accountTypes.join(" or ")}`)
            )
          }
        }
        let startTime = q.startTime
        let endTime = q.endTime
        if (maxWindow.transfers !== undefined) {
          endTime ??= now
          startTime ??= Math.max(0, endTime - Duration.toMillis(Duration.decode(maxWindow.transfers)))
        }
        if (startTime !== undefined && endTime !== undefined) {
          const broken = windowRule(startTime, endTime, maxWindow.transfers)
          if (broken !== undefined) return yield* Either.left(broken)
        }
        return {
          filter: {
            fromAccount: q.fromAccount ?? null,
            toAccount: q.toAccount ?? null,
            fromAccountType: q.fromAccountType,
            toAccountType: q.toAccountType,
            clientTranId: q.clientTranId,
            startTime,
            endTime
          },
          page: { page: q.page ?? 1, limit: q.limit ?? Endpoint.transferHistory.defaultLimit },
          matchesNothing: false
        }
      })
  )

/**
 * Reads transfer-history parameters into a store filter and page as the service does by default:
 * `transfersAccepting` with `SPOT` and `FUTURES` (`Accounts.accepted()`). Omitted
 * `fromAccount`/`toAccount` select the master account (`null`), and with a maximum window configured
 * a missing `endTime` is now and a missing `startTime` is `endTime` minus the maximum.
 */
export const transfers: Reader<TransferFilter> = transfersAccepting(Accounts.accepted())

const statusCode = /^(0|[1-9][0-9]{0,8})$/

/**
 * Reads deposit-history parameters into a store filter and page: `startTime` defaults to now − 10 days
 * and `endTime` to now, each on its own, then `startTime <= endTime` and the maximum window apply.
 */
export const deposits: Reader<DepositFilter> = reader(
  DepositHistoryQuery.DepositHistoryQuery,
  DepositHistoryQuery.fromText,
  (q, now, maxWindow) =>
    Either.gen(function*() {
      const endTime = q.endTime ?? now
      const startTime = q.startTime ?? Math.max(0, now - Duration.toMillis(Endpoint.depositDefaultWindow))
      const broken = windowRule(startTime, endTime, maxWindow.deposits)
      if (broken !== undefined) return yield* Either.left(broken)
      const status = q.status === undefined ? undefined : statusCode.test(q.status) ? Number(q.status) : NaN
      return {
        filter: { coin: q.coin, status: Number.isNaN(status) ? undefined : status, startTime, endTime },
        page: { page: q.page ?? 1, limit: q.limit ?? Endpoint.depositHistory.defaultLimit },
        matchesNothing: Number.isNaN(status)
      }
    })
)

/**
 * Reads the sub-account list's parameters (`GET /api/v3/broker/sub-account/list`) into a store filter
 * and page by the domain's rules (`SubAccountListQuery`): `subAccount` an exact, non-empty name,
 * `page` from 1 (default 1), `limit` 1 to 200 (default 10).
 */
export const subAccounts: Reader<SubAccountFilter> = reader(
  SubAccountListQuery.SubAccountListQuery,
  SubAccountListQuery.fromText,
  (q) =>
    Either.right({
      filter: { name: q.subAccount },
      page: { page: q.page ?? 1, limit: q.limit ?? Endpoint.subAccountList.defaultLimit },
      matchesNothing: false
    })
)
