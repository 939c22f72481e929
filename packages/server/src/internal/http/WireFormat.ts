/**
 * The JSON the service answers: records and the sub-account list in MEXC's shapes, and the bodies of
 * the unsigned endpoints.
 *
 * Choices (documented in the package README): `tranId` is text; `clientTranId` is `null` when
 * absent; the master account (stored as `null`) is shown by its name; deposit `status` is a number
 * (MEXC style); a missing `addressTag` is `""` (SPEC: "may be an empty string") and a missing `memo`
 * is `null`, so clients meet both spellings of "absent".
 *
 * @internal
 */
import type { DepositRow, SubAccountRow, TransferRow } from "../../Store.js"

/**
 * A stored transfer as the service answers it, in MEXC's field order: the master account (stored as
 * `null`) is shown by its name and a missing `clientTranId` is `null`.
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
 * A stored deposit as the service answers it: `status` a number (MEXC style), a missing `addressTag`
 * `""` and a missing `memo` `null`, so clients meet both spellings of "absent".
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
 * A page of the broker's sub-account list as the exchange documents it: not a bare array but an
 * object with `code` `"0"`, an empty `message` and the sub-accounts in `data`, each with its creation
 * time as decimal text.
 */
export const subAccountList = (rows: ReadonlyArray<SubAccountRow>) => ({
  code: "0",
  message: "",
  data: rows.map((row) => ({ subAccount: row.name, note: row.note, timestamp: String(row.createdAt) }))
})

/**
 * The 404 answer of an unknown path; the error table has no row for it, so it borrows the HTTP status
 * as its code.
 */
export const notFound = { status: 404, code: 404, msg: "Not found." } as const
