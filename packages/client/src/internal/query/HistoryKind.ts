/**
 * What differs between the two histories: the endpoint, the filters of a stream query, the wire
 * parameters, the record kind, what counts as a change of a record and what a record of a query's
 * answer must match. Also the checks of a stream query's filters (the page query's own rules; an
 * unknown option is an error).
 *
 * @internal
 */
import type { DepositRecord as DepositRecordNs, TransferRecord as TransferRecordNs } from "@broker-history/domain"
import {
  DepositHistoryQuery,
  DepositRecord,
  Endpoint,
  TransferHistoryQuery,
  TransferRecord
} from "@broker-history/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import { InvalidQuery } from "../../BrokerError.js"
import type { Filter } from "./QueryCheck.js"

/** A rule a query broke. */
export interface Violation {
  readonly parameter: string
  readonly rule: string
}

export interface HistoryKind<Q, A> {
  readonly endpoint: Endpoint.Endpoint
  /** The filters a stream query may hold (the rest of the page query is the walk's business). */
  readonly filters: ReadonlyArray<string>
  readonly validate: (input: unknown) => Either.Either<Q, Violation>
  readonly toParams: (query: Q) => Array<readonly [string, string]>
  readonly page: Schema.Schema<ReadonlyArray<A>, any>
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly compare: (a: A, b: A) => number
  /** What a change of an emitted record is (follow mode). */
  readonly fingerprint: (record: A) => string
  /** What every record of the query's answer must match besides its time (`QueryCheck`). */
  readonly recordFilters: (query: Omit<Q, "startTime" | "endTime" | "page" | "limit">) => ReadonlyArray<Filter<A>>
}

export const transfers: HistoryKind<TransferHistoryQuery.TransferHistoryQuery, TransferRecordNs.TransferRecord> = {
  endpoint: Endpoint.transferHistory,
  filters: ["fromAccountType", "toAccountType", "fromAccount", "toAccount", "clientTranId"],
  validate: TransferHistoryQuery.validate,
  toParams: TransferHistoryQuery.toParams,
  page: TransferRecord.TransferPage,
  time: (r) => r.timestamp,
  key: TransferRecord.key,
  compare: TransferRecord.compare,
  fingerprint: (r) => r.status,
  // The service answers one account pair and one account-type pair; an omitted account is the master.
  recordFilters: (query) => {
    const filters: Array<Filter<TransferRecordNs.TransferRecord>> = [
      { field: "fromAccountType", read: (r) => r.fromAccountType, value: query.fromAccountType },
      { field: "toAccountType", read: (r) => r.toAccountType, value: query.toAccountType },
      { field: "fromAccount", read: (r) => r.fromAccount, value: query.fromAccount },
      { field: "toAccount", read: (r) => r.toAccount, value: query.toAccount }
    ]
    if (query.clientTranId !== undefined) {
      filters.push({ field: "clientTranId", read: (r) => r.clientTranId, value: query.clientTranId })
    }
    return filters
  }
}

export const deposits: HistoryKind<DepositHistoryQuery.DepositHistoryQuery, DepositRecordNs.DepositRecord> = {
  endpoint: Endpoint.depositHistory,
  filters: ["coin", "status"],
  validate: DepositHistoryQuery.validate,
  toParams: DepositHistoryQuery.toParams,
  page: DepositRecord.DepositPage,
  time: (r) => r.insertTime,
  key: DepositRecord.key,
  compare: DepositRecord.compare,
  fingerprint: (r) => r.status + "|" + r.confirmTimes + "|" + r.unlockConfirm + "|" + r.amount,
  recordFilters: (query) => {
    const filters: Array<Filter<DepositRecordNs.DepositRecord>> = []
    if (query.coin !== undefined) filters.push({ field: "coin", read: (r) => r.coin, value: query.coin })
    if (query.status !== undefined) filters.push({ field: "status", read: (r) => r.status, value: query.status })
    return filters
  }
}

/** The options of `transfers` / `deposits` (`StreamOptions.StreamOptions`). */
export const streamOptionNames: ReadonlySet<string> = new Set(["since", "until", "resume", "limit", "concurrency"])
/** The options of the change streams (`StreamOptions.ChangeOptions`). */
export const changeOptionNames: ReadonlySet<string> = new Set([...streamOptionNames, "follow"])

/** The `InvalidQuery` of a broken rule. */
export const invalid = (endpoint: string) => (violation: Violation) =>
  new InvalidQuery({ endpoint, parameter: violation.parameter, rule: violation.rule })

/** The filters of a stream query, checked by the page query's rules; unknown options are errors. */
export const filtersOf = <Q, A>(
  history: HistoryKind<Q, A>,
  query: object,
  optionNames: ReadonlySet<string>
): Effect.Effect<Q, InvalidQuery> =>
  Effect.suspend(() => {
    const endpoint = history.endpoint.name
    if (typeof query !== "object" || query === null) {
      return Effect.fail(new InvalidQuery({ endpoint, parameter: "query", rule: "must be an object of options" }))
    }
    const filters: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(query)) {
      if (history.filters.includes(name)) {
        if (value !== undefined) filters[name] = value
      } else if (!optionNames.has(name)) {
        return Effect.fail(
          new InvalidQuery({
            endpoint,
            parameter: name,
            rule: name === "follow"
              ? "is an option of the change streams: use transferChanges / depositChanges to follow"
              : "is not an option of this stream"
          })
        )
      }
    }
    return Either.match(history.validate(filters), {
      onLeft: (v) => Effect.fail(invalid(endpoint)(v)),
      onRight: Effect.succeed
    })
  })
