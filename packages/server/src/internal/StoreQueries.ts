/**
 * The store's read queries: the filters as SQL conditions, the complete listings (oldest first), the
 * endpoints' pages (the histories newest first, the sub-accounts oldest first) and their query plans.
 *
 * @internal
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import type * as Store from "../Store.js"
import { offsetOf } from "./StoreColumns.js"

/** The read queries over `sql`. */
export const make = (sql: SqlClient.SqlClient) => {
  // tranId is read back as text so ids beyond 2^53 stay exact.
  const transferSelect = sql`
    SELECT CAST(tran_id AS TEXT) AS tranId, client_tran_id AS clientTranId, from_account AS fromAccount,
      to_account AS toAccount, asset, amount, from_account_type AS fromAccountType,
      to_account_type AS toAccountType, from_symbol AS fromSymbol, to_symbol AS toSymbol, status, timestamp
    FROM transfers`
  const depositSelect = sql`
    SELECT amount, coin, network, status, address, address_tag AS addressTag, tx_id AS txId,
      unlock_confirm AS unlockConfirm, confirm_times AS confirmTimes, insert_time AS insertTime, memo
    FROM deposits`

  const subAccountSelect = sql`SELECT name, note, created_at AS createdAt FROM sub_accounts`

  const account = (column: string, value: string | null | undefined): Array<Fragment> =>
    value === undefined ? [] : value === null ? [sql`${sql(column)} IS NULL`] : [sql`${sql(column)} = ${value}`]

  const transferWhere = (f: Store.TransferFilter): Fragment =>
    sql.and([
      ...account("from_account", f.fromAccount),
      ...account("to_account", f.toAccount),
      ...(f.fromAccountType === undefined ? [] : [sql`from_account_type = ${f.fromAccountType}`]),
      ...(f.toAccountType === undefined ? [] : [sql`to_account_type = ${f.toAccountType}`]),
      ...(f.clientTranId === undefined ? [] : [sql`client_tran_id = ${f.clientTranId}`]),
      ...(f.startTime === undefined ? [] : [sql`timestamp >= ${f.startTime}`]),
      ...(f.endTime === undefined ? [] : [sql`timestamp <= ${f.endTime}`])
    ])

  const depositWhere = (f: Store.DepositFilter): Fragment =>
    sql.and([
      ...(f.coin === undefined ? [] : [sql`coin = ${f.coin}`]),
      ...(f.status === undefined ? [] : [sql`status = ${f.status}`]),
      ...(f.startTime === undefined ? [] : [sql`insert_time >= ${f.startTime}`]),
      ...(f.endTime === undefined ? [] : [sql`insert_time <= ${f.endTime}`])
    ])

  const subAccountWhere = (f: Store.SubAccountFilter): Fragment =>
    sql.and(f.name === undefined ? [] : [sql`name = ${f.name}`])

  return {
    /** Every matching transfer, ascending (timestamp, then tranId numerically). */
    allTransfers: (f: Store.TransferFilter) =>
      sql<Store.TransferRow>`${transferSelect} WHERE ${transferWhere(f)} ORDER BY timestamp, tran_id`,
    /** Every matching deposit, ascending (insertTime, then insertion order). */
    allDeposits: (f: Store.DepositFilter) =>
      sql<Store.DepositRow>`${depositSelect} WHERE ${depositWhere(f)} ORDER BY insert_time, id`,
    /** One page of matching transfers, newest first. */
    transferPage: (f: Store.TransferFilter, page: Store.Page) =>
      sql<Store.TransferRow>`${transferSelect} WHERE ${transferWhere(f)}
      ORDER BY timestamp DESC, tran_id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /** One page of matching deposits, newest first. */
    depositPage: (f: Store.DepositFilter, page: Store.Page) =>
      sql<Store.DepositRow>`${depositSelect} WHERE ${depositWhere(f)}
      ORDER BY insert_time DESC, id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /**
     * The ids of the pending transfers at or before `until`, oldest first. `'PENDING'` is written in
     * the statement, not bound, so that the partial index `transfers_pending` serves it.
     */
    pendingTransfers: (until: number) =>
      sql<{ readonly tranId: string }>`SELECT CAST(tran_id AS TEXT) AS tranId FROM transfers
      WHERE status = 'PENDING' AND timestamp <= ${until} ORDER BY timestamp, tran_id`,
    /** Every matching sub-account, by creation time, then name. */
    allSubAccounts: (f: Store.SubAccountFilter) =>
      sql<Store.SubAccountRow>`${subAccountSelect} WHERE ${subAccountWhere(f)} ORDER BY created_at, name`,
    /** One page of matching sub-accounts, by creation time, then name. */
    subAccountPage: (f: Store.SubAccountFilter, page: Store.Page) =>
      sql<Store.SubAccountRow>`${subAccountSelect} WHERE ${subAccountWhere(f)}
      ORDER BY created_at, name LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /**
     * The accounts the stored transfers name, each created at the earliest transfer naming it: the
     * sub-accounts of a history stored without them.
     */
    subAccountsOfTransfers: sql<Store.SubAccountRow>`
      SELECT name, '' AS note, min(timestamp) AS createdAt FROM (
        SELECT from_account AS name, timestamp FROM transfers WHERE from_account IS NOT NULL
        UNION ALL
        SELECT to_account AS name, timestamp FROM transfers WHERE to_account IS NOT NULL
      ) GROUP BY name ORDER BY createdAt, name`,
    /** `EXPLAIN QUERY PLAN` of a statement, one detail line per plan step. */
    explain: (statement: { readonly compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
      const [text, params] = statement.compile()
      return sql.unsafe<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params).pipe(
        Effect.map((rows) => rows.map((row) => row.detail)),
        Effect.orDie
      )
    }
  }
}
