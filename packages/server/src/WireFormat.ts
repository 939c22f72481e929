/**
 * The JSON the service answers: records in MEXC's shapes, and the bodies of the unsigned endpoints.
 *
 * Choices (documented in the package README): `tranId` is text; `clientTranId` is `null` when
 * absent; the master account (stored as `null`) is shown by its name; deposit `status` is a number
 * (MEXC style); a missing `addressTag` is `""` (SPEC: "may be an empty string") and a missing `memo`
 * is `null`, so clients meet both spellings of "absent".
 *
 * @since 0.1.0
 */
import type { DepositRow, TransferRow } from "./Store.js"

/**
 * A transfer as answered.
 *
 * @example
 * import { WireFormat } from "@broker-history/server"
 * declare const row: Store.TransferRow
 * JSON.stringify(WireFormat.transfer(row, "master@broker.test"))
 */
export const transfer = (row: TransferRow, masterAccount: string) => ({
  tranId: row.tranId,
  clientTranId: row.clientTranId,
  fromAccount: row.fromAccount ?? masterAccount,
  toAccount: row.toAccount ?? masterAccount,
  asset: row.asset,
  amount: row.amount,
  fromAccountType: row.fromAccountType,
  toAccountType: row.toAccountType,
  fromSymbol: row.fromSymbol,
  toSymbol: row.toSymbol,
  status: row.status,
  timestamp: row.timestamp
})

/**
 * A deposit as answered.
 *
 * @example
 * import { WireFormat } from "@broker-history/server"
 * declare const row: Store.DepositRow
 * WireFormat.deposit(row).status // a number such as 5
 */
export const deposit = (row: DepositRow) => ({
  amount: row.amount,
  coin: row.coin,
  network: row.network,
  status: row.status,
  address: row.address,
  addressTag: row.addressTag ?? "",
  txId: row.txId,
  unlockConfirm: row.unlockConfirm,
  confirmTimes: row.confirmTimes,
  insertTime: row.insertTime,
  memo: row.memo
})

/**
 * The body of an unknown route (404); the error table has no row for it, so it borrows the HTTP
 * status as its code.
 *
 * @example
 * import { WireFormat } from "@broker-history/server"
 * WireFormat.notFound.code // 404
 */
export const notFound = { status: 404, code: 404, msg: "Not found." } as const
