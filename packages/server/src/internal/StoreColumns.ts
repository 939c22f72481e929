/**
 * The store's rows as table columns and back: transfers, deposits, deposit changes, sub-accounts and
 * API keys, and a page as its row offset.
 *
 * @internal
 */
import type { ApiKey } from "../ApiKeys.js"
import * as ApiKeys from "../ApiKeys.js"
import type * as Store from "../Store.js"

/** Rows per multi-row insert: 500 rows x 12 columns stays far below SQLite's bound-parameter limit. */
export const batchSize = 500

const digits = /^[0-9]+$/

/** A `tranId` as its column: base-10 digits, stored as an integer (anything else throws). */
export const tranIdColumn = (tranId: string): bigint => {
  if (!digits.test(tranId)) throw new Error(`tranId must be base-10 digits, got ${JSON.stringify(tranId)}`)
  return BigInt(tranId)
}

/** A transfer's columns; `tranId` must be base-10 digits, stored as an integer. */
export const transferColumns = (row: Store.TransferRow) => {
  return {
    tran_id: tranIdColumn(row.tranId),
    client_tran_id: row.clientTranId,
    from_account: row.fromAccount,
    to_account: row.toAccount,
    asset: row.asset,
    amount: row.amount,
    from_account_type: row.fromAccountType,
    to_account_type: row.toAccountType,
    from_symbol: row.fromSymbol,
    to_symbol: row.toSymbol,
    status: row.status,
    timestamp: row.timestamp
  }
}

/** A deposit's columns. */
export const depositColumns = (row: Store.DepositRow) => ({
  amount: row.amount,
  coin: row.coin,
  network: row.network,
  status: row.status,
  address: row.address,
  address_tag: row.addressTag,
  tx_id: row.txId,
  unlock_confirm: row.unlockConfirm,
  confirm_times: row.confirmTimes,
  insert_time: row.insertTime,
  memo: row.memo
})

/** The columns a deposit change sets: none when it changes nothing. */
export const depositChangeColumns = (change: Store.DepositChange) => ({
  ...(change.status === undefined ? {} : { status: change.status }),
  ...(change.confirmTimes === undefined ? {} : { confirm_times: change.confirmTimes })
})

/** A sub-account's columns. */
export const subAccountColumns = (row: Store.SubAccountRow) => ({
  name: row.name,
  note: row.note,
  created_at: row.createdAt
})

/** An API key's columns: its permissions as one comma-separated text. */
export const keyColumns = (key: ApiKey) => ({
  api_key: key.apiKey,
  secret_key: key.secretKey,
  permissions: key.permissions.join(",")
})

/** An API key as read back. */
export interface KeyRow {
  readonly apiKey: string
  readonly secretKey: string
  readonly permissions: string
}

/** A stored key: its known permissions, in their canonical order. */
export const keyOfRow = (row: KeyRow): ApiKey => ({
  apiKey: row.apiKey,
  secretKey: row.secretKey,
  permissions: ApiKeys.permissions.filter((p) => row.permissions.split(",").includes(p))
})

/** The rows before the page. */
export const offsetOf = (page: Store.Page): bigint => (BigInt(page.page) - 1n) * BigInt(page.limit)
