/**
 * What differs between the two histories: the plain part is core's (`@broker-history/core/query/HistoryKind`:
 * the endpoint, a record's time, identity and order, what counts as a change of a record and what a
 * record of a query's answer must match); this adds the page query's rules and wire parameters, the
 * stream queries (`StreamQuery`) and the page's schema.
 *
 * @internal
 */
import * as Core from "@broker-history/core/query/HistoryKind"
import type * as Decoding from "../line/Decoding.js"
import type {
  DepositRecord as DepositRecordNs,
  QueryViolation,
  TransferRecord as TransferRecordNs
} from "../line/Domain.js"
import { DepositHistoryQuery, DepositRecord, TransferHistoryQuery, TransferRecord } from "../line/Domain.js"
import type * as Results from "../line/Results.js"
import * as StreamQuery from "../line/StreamQuery.js"
import type * as OptionRules from "./OptionRules.js"

/** A stream query's filters: the page query without its window and page (the walk's business). */
export type Filters<Q> = Core.Filters<Q>

export interface HistoryKind<Q, A> extends Core.HistoryKind<Q, A> {
  /** The page query's rules (the page calls). */
  readonly validate: (input: unknown) => Results.Result<Q, QueryViolation.QueryViolation>
  /** The stream queries' decoders: the filters, the range options and `follow`. */
  readonly query: OptionRules.History<Filters<Q>>
  readonly toParams: (query: Q) => Array<readonly [string, string]>
  readonly page: Decoding.Decoder<ReadonlyArray<A>>
}

export const transfers: HistoryKind<TransferHistoryQuery.TransferHistoryQuery, TransferRecordNs.TransferRecord> = {
  ...Core.transfers,
  validate: TransferHistoryQuery.validate,
  query: StreamQuery.transfers,
  toParams: TransferHistoryQuery.toParams,
  page: TransferRecord.TransferPage
}

export const deposits: HistoryKind<DepositHistoryQuery.DepositHistoryQuery, DepositRecordNs.DepositRecord> = {
  ...Core.deposits,
  validate: DepositHistoryQuery.validate,
  query: StreamQuery.deposits,
  toParams: DepositHistoryQuery.toParams,
  page: DepositRecord.DepositPage
}
