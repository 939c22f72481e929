/**
 * What differs between the two histories, as far as it is plain: the endpoint, a record's time,
 * identity and order, what counts as a change of a record (follow mode), and what every record of a
 * query's answer must match (`QueryCheck`). Each line's client adds its schemas and stream options
 * to make its own history kinds.
 *
 * @since 0.2.0
 */
import * as Endpoint from "../protocol/Endpoint.js"
import type * as Parameters from "../protocol/Parameters.js"
import * as DepositRecord from "../record/DepositRecord.js"
import * as TransferRecord from "../record/TransferRecord.js"
import type * as QueryCheck from "./QueryCheck.js"
import type * as QueryViolation from "./QueryViolation.js"

/**
 * A stream query's filters: the page query without its window and page (the walk's business).
 *
 * @example
 * ```ts
 * import type * as HistoryKind from "@broker-history/core/query/HistoryKind"
 * import type * as Parameters from "@broker-history/core/protocol/Parameters"
 *
 * const usdt: HistoryKind.Filters<Parameters.DepositHistoryQuery> = { coin: "USDT" }
 * assert.strictEqual(usdt.status, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Filters<Q> = Omit<Q, keyof QueryViolation.WindowPage>

/**
 * One history: its endpoint, its records' time (Unix ms), identity and order, the fingerprint whose
 * change is a change of an emitted record, and the filters every record of an answer must match
 * besides its time.
 *
 * @example
 * ```ts
 * import * as HistoryKind from "@broker-history/core/query/HistoryKind"
 *
 * const kinds: ReadonlyArray<HistoryKind.HistoryKind<any, any>> = [HistoryKind.transfers, HistoryKind.deposits]
 * assert.deepStrictEqual(kinds.map((kind) => kind.endpoint.name), ["transferHistory", "depositHistory"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface HistoryKind<Q, A> {
  readonly endpoint: Endpoint.Endpoint
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly compare: (a: A, b: A) => number
  /** What a change of an emitted record is (follow mode): a different fingerprint. */
  readonly fingerprint: (record: A) => string
  /** What every record of the query's answer must match besides its time (`QueryCheck`). */
  readonly recordFilters: (query: Filters<Q>) => ReadonlyArray<QueryCheck.Filter<A>>
}

/**
 * The transfer history. The service answers one account pair and one account-type pair, an omitted
 * account being the master; a transfer changes when its status does.
 *
 * @example
 * ```ts
 * import * as HistoryKind from "@broker-history/core/query/HistoryKind"
 *
 * const filters = HistoryKind.transfers.recordFilters({ fromAccountType: "SPOT", toAccountType: "FUTURES" })
 * assert.deepStrictEqual(filters.map((f) => [f.field, f.value]), [
 *   ["fromAccountType", "SPOT"],
 *   ["toAccountType", "FUTURES"],
 *   ["fromAccount", undefined],
 *   ["toAccount", undefined]
 * ])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const transfers: HistoryKind<Parameters.TransferHistoryQuery, TransferRecord.TransferRecord> = {
  endpoint: Endpoint.transferHistory,
  time: (r) => r.timestamp,
  key: TransferRecord.key,
  compare: TransferRecord.compare,
  fingerprint: (r) => r.status,
  recordFilters: (query) => {
    const filters: Array<QueryCheck.Filter<TransferRecord.TransferRecord>> = [
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

/**
 * The deposit history. Its answer holds the coin and status asked for, when asked; a deposit changes
 * when its status, confirmations, unlock confirmations or amount do.
 *
 * @example
 * ```ts
 * import * as HistoryKind from "@broker-history/core/query/HistoryKind"
 *
 * assert.deepStrictEqual(HistoryKind.deposits.recordFilters({ coin: "USDT" }).map((f) => f.field), ["coin"])
 * assert.deepStrictEqual(HistoryKind.deposits.recordFilters({}), [])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const deposits: HistoryKind<Parameters.DepositHistoryQuery, DepositRecord.DepositRecord> = {
  endpoint: Endpoint.depositHistory,
  time: (r) => r.insertTime,
  key: DepositRecord.key,
  compare: DepositRecord.compare,
  fingerprint: (r) => r.status + "|" + r.confirmTimes + "|" + r.unlockConfirm + "|" + r.amount,
  recordFilters: (query) => {
    const filters: Array<QueryCheck.Filter<DepositRecord.DepositRecord>> = []
    if (query.coin !== undefined) filters.push({ field: "coin", read: (r) => r.coin, value: query.coin })
    if (query.status !== undefined) filters.push({ field: "status", read: (r) => r.status, value: query.status })
    return filters
  }
}
