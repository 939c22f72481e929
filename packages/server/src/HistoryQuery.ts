/**
 * The business parameters of a verified request, read into a store filter and page: decoding,
 * repeated and unknown parameters, the domain's query rules, the server's accepted account types
 * (its own, not the domain's list), the deposit default window and the maximum window per history
 * endpoint, and the sub-account list's name and page. Pure: `now` is an input.
 *
 * @since 0.1.0
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
import * as AccountTypes from "./AccountTypes.js"
import type * as RawQuery from "./RawQuery.js"
import { label } from "./RawQuery.js"
import type { DepositFilter, Page, SubAccountFilter, TransferFilter } from "./Store.js"

/**
 * The longest `endTime - startTime` each endpoint accepts; `undefined` means no maximum.
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const oneDay: HistoryQuery.MaxWindow = { transfers: undefined, deposits: "1 day" }
 * const read = HistoryQuery.deposits(RawQuery.parse("startTime=0&endTime=172800000"), 172800000, oneDay)
 * assert.deepStrictEqual(
 *   Either.map(Either.flip(read), (row) => row.msg),
 *   Either.right("Param is error: endTime - startTime must not exceed 86400000 ms (1d)")
 * )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface MaxWindow {
  readonly transfers?: Duration.DurationInput | undefined
  readonly deposits?: Duration.DurationInput | undefined
}

/**
 * The reference server's maximum windows: transfers unlimited, deposits 10 days.
 *
 * @example
 * ```ts
 * import { HistoryQuery } from "@broker-history/server"
 * import { Endpoint } from "@broker-history/domain"
 *
 * assert.strictEqual(HistoryQuery.defaultMaxWindow.transfers, undefined)
 * assert.strictEqual(HistoryQuery.defaultMaxWindow.deposits, Endpoint.depositDefaultWindow)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxWindow: MaxWindow = { transfers: undefined, deposits: Endpoint.depositDefaultWindow }

/**
 * What to read: the store filter and page, or `matchesNothing` when a filter value can match no
 * stored record (a deposit `status` that is not a status code's text).
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import type { Store } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const describe = (read: HistoryQuery.Read<Store.DepositFilter>): string =>
 *   read.matchesNothing ? "no records" : `page ${read.page.page}, ${read.page.limit} a page`
 * const now = 1700000000000
 * const read = (query: string) =>
 *   describe(Either.getOrThrow(HistoryQuery.deposits(RawQuery.parse(query), now, HistoryQuery.defaultMaxWindow)))
 * assert.strictEqual(read("status=5&page=2"), "page 2, 20 a page")
 * assert.strictEqual(read("status=SUCCESS"), "no records") // the service filters on status codes
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Read<F> {
  readonly filter: F
  readonly page: Page
  readonly matchesNothing: boolean
}

/**
 * How one endpoint's parameters are read: the parameters as received, the time now (Unix ms) for the
 * defaults, and the maximum windows; the store filter and page, or the error row to answer.
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import type { Store } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const pageOf = (read: HistoryQuery.Reader<Store.DepositFilter>, query: string) =>
 *   Either.map(read(RawQuery.parse(query), 1700000000000, HistoryQuery.defaultMaxWindow), (r) => r.page)
 * assert.deepStrictEqual(pageOf(HistoryQuery.deposits, "page=3"), Either.right({ page: 3, limit: 20 }))
 * ```
 *
 * @since 0.2.0
 * @category models
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
 *
 * @example
 * ```ts
 * import { AccountTypes, HistoryQuery, RawQuery } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const read = HistoryQuery.transfersAccepting(AccountTypes.accepted("FUTURE"))
 * const query = (text: string) => read(RawQuery.parse(text), 1700000000000, HistoryQuery.defaultMaxWindow)
 * assert.ok(Either.isRight(query("fromAccountType=SPOT&toAccountType=FUTURE")))
 * const refused = query("fromAccountType=SPOT&toAccountType=FUTURES")
 * assert.ok(Either.isLeft(refused) && refused.left.msg === "Param is error: toAccountType must be SPOT or FUTURE")
 * ```
 *
 * @since 0.2.0
 * @category decoding
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
 * `transfersAccepting` with `SPOT` and `FUTURES` (`AccountTypes.accepted()`). Omitted
 * `fromAccount`/`toAccount` select the master account (`null`), and with a maximum window configured
 * a missing `endTime` is now and a missing `startTime` is `endTime` minus the maximum.
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const read = HistoryQuery.transfers(
 *   RawQuery.parse("fromAccountType=SPOT&toAccountType=FUTURES&toAccount=sub001%40broker.test"),
 *   1700000000000,
 *   HistoryQuery.defaultMaxWindow
 * )
 * assert.deepStrictEqual(
 *   read,
 *   Either.right({
 *     filter: {
 *       fromAccount: null,
 *       toAccount: "sub001@broker.test",
 *       fromAccountType: "SPOT",
 *       toAccountType: "FUTURES",
 *       clientTranId: undefined,
 *       startTime: undefined,
 *       endTime: undefined
 *     },
 *     page: { page: 1, limit: 500 },
 *     matchesNothing: false
 *   })
 * )
 * const unknown = HistoryQuery.transfers(
 *   RawQuery.parse("fromAccountType=SPOT&toAccountType=FUTURES&coin=USDT"),
 *   1700000000000,
 *   HistoryQuery.defaultMaxWindow
 * )
 * assert.ok(Either.isLeft(unknown) && unknown.left.msg === "Param is error: coin is not a parameter of this endpoint")
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const transfers: Reader<TransferFilter> = transfersAccepting(AccountTypes.accepted())

const statusCode = /^(0|[1-9][0-9]{0,8})$/

/**
 * Reads deposit-history parameters into a store filter and page: `startTime` defaults to now − 10 days
 * and `endTime` to now, each on its own, then `startTime <= endTime` and the maximum window apply.
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const tenDays = 864_000_000
 * const read = HistoryQuery.deposits(RawQuery.parse("coin=USDT&status=5"), 2 * tenDays, HistoryQuery.defaultMaxWindow)
 * assert.deepStrictEqual(
 *   read,
 *   Either.right({
 *     filter: { coin: "USDT", status: 5, startTime: tenDays, endTime: 2 * tenDays },
 *     page: { page: 1, limit: 20 },
 *     matchesNothing: false
 *   })
 * )
 * const backwards = HistoryQuery.deposits(
 *   RawQuery.parse("startTime=2000&endTime=1000"),
 *   2 * tenDays,
 *   HistoryQuery.defaultMaxWindow
 * )
 * assert.ok(Either.isLeft(backwards) && backwards.left.msg === "Param is error: startTime must not be after endTime")
 * ```
 *
 * @since 0.1.0
 * @category decoding
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
 *
 * @example
 * ```ts
 * import { HistoryQuery, RawQuery } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const read = (query: string) => HistoryQuery.subAccounts(RawQuery.parse(query), 0, HistoryQuery.defaultMaxWindow)
 * assert.deepStrictEqual(
 *   read("page=2"),
 *   Either.right({ filter: { name: undefined }, page: { page: 2, limit: 10 }, matchesNothing: false })
 * )
 * const tooMany = read("limit=201")
 * assert.ok(Either.isLeft(tooMany) && tooMany.left.msg === "Param is error: limit must be an integer from 1 to 200")
 * ```
 *
 * @since 0.2.0
 * @category decoding
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
