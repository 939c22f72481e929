/**
 * What differs between the two histories: the endpoint, the page query's rules and wire parameters,
 * the stream queries (`StreamQuery`), the record kind, what counts as a change of a record and what
 * a record of a query's answer must match.
 *
 * @internal
 */
import type { Filter } from "@broker-history/core/query/QueryCheck"
import type {
  DepositRecord as DepositRecordNs,
  QueryViolation,
  TransferRecord as TransferRecordNs
} from "@broker-history/domain-effect4"
import {
  DepositHistoryQuery,
  DepositRecord,
  Endpoint,
  TransferHistoryQuery,
  TransferRecord
} from "@broker-history/domain-effect4"
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as StreamQuery from "./StreamQuery.js"

/** A stream query's filters: the page query without its window and page (the walk's business). */
export type Filters<Q> = Omit<Q, keyof QueryViolation.WindowPage>

export interface HistoryKind<Q, A> {
  readonly endpoint: Endpoint.Endpoint
  /** The page query's rules (the page calls). */
  readonly validate: (input: unknown) => Result.Result<Q, QueryViolation.QueryViolation>
  /** The stream queries' decoders: the filters, the range options and `follow`. */
  readonly query: StreamQuery.History<Filters<Q>>
  readonly toParams: (query: Q) => Array<readonly [string, string]>
  readonly page: Schema.Decoder<ReadonlyArray<A>>
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly compare: (a: A, b: A) => number
  /** What a change of an emitted record is (follow mode). */
  readonly fingerprint: (record: A) => string
  /** What every record of the query's answer must match besides its time (`QueryCheck`). */
  readonly recordFilters: (query: Filters<Q>) => ReadonlyArray<Filter<A>>
}

export const transfers: HistoryKind<TransferHistoryQuery.TransferHistoryQuery, TransferRecordNs.TransferRecord> = {
  endpoint: Endpoint.transferHistory,
  validate: TransferHistoryQuery.validate,
  query: StreamQuery.transfers,
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
  validate: DepositHistoryQuery.validate,
  query: StreamQuery.deposits,
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
