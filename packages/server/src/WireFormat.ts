/**
 * The JSON the service answers: records and the sub-account list in MEXC's shapes, and the bodies of
 * the unsigned endpoints.
 *
 * Choices (documented in the package README): `tranId` is text; `clientTranId` is `null` when
 * absent; the master account (stored as `null`) is shown by its name; deposit `status` is a number
 * (MEXC style); a missing `addressTag` is `""` (SPEC: "may be an empty string") and a missing `memo`
 * is `null`, so clients meet both spellings of "absent".
 *
 * @since 0.1.0
 */
import type { DepositRow, SubAccountRow, TransferRow } from "./Store.js"

/**
 * A stored transfer as the service answers it, in MEXC's field order: the master account (stored as
 * `null`) is shown by its name and a missing `clientTranId` is `null`.
 *
 * @example
 * ```ts
 * import { Accounts, WireFormat } from "@broker-history/server"
 * import type { Store } from "@broker-history/server"
 *
 * const row: Store.TransferRow = {
 *   tranId: "11945860693",
 *   clientTranId: null,
 *   fromAccount: null,
 *   toAccount: "sub001@broker.test",
 *   asset: "USDT",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   fromSymbol: "",
 *   toSymbol: "",
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * }
 * assert.strictEqual(
 *   JSON.stringify(WireFormat.transfer(row, Accounts.masterAccount)),
 *   `{"tranId":"11945860693","clientTranId":null,"fromAccount":"master@broker.test","toAccount":"sub001@broker.test",` +
 *     `"asset":"USDT","amount":"0.10000000","fromAccountType":"SPOT","toAccountType":"FUTURES","fromSymbol":"",` +
 *     `"toSymbol":"","status":"SUCCESS","timestamp":1544433325000}`
 * )
 * ```
 *
 * @since 0.1.0
 * @category encoding
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
 *
 * @example
 * ```ts
 * import { WireFormat } from "@broker-history/server"
 * import type { Store } from "@broker-history/server"
 *
 * const row: Store.DepositRow = {
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   network: "TRC20",
 *   status: 5,
 *   address: "TXyz",
 *   addressTag: null,
 *   txId: "0xabc",
 *   unlockConfirm: "20",
 *   confirmTimes: "20",
 *   insertTime: 1654064568000,
 *   memo: null
 * }
 * const answered = WireFormat.deposit(row)
 * assert.deepStrictEqual([answered.status, answered.addressTag, answered.memo], [5, "", null])
 * ```
 *
 * @since 0.1.0
 * @category encoding
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
 *
 * @example
 * ```ts
 * import { WireFormat } from "@broker-history/server"
 *
 * const answered = WireFormat.subAccountList([{ name: "sub001@broker.test", note: "desk 1", createdAt: 1597026383085 }])
 * assert.strictEqual(
 *   JSON.stringify(answered),
 *   `{"code":"0","message":"","data":[{"subAccount":"sub001@broker.test","note":"desk 1","timestamp":"1597026383085"}]}`
 * )
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const subAccountList = (rows: ReadonlyArray<SubAccountRow>) => ({
  code: "0",
  message: "",
  data: rows.map((row) => ({ subAccount: row.name, note: row.note, timestamp: String(row.createdAt) }))
})

/**
 * The 404 answer of an unknown path; the error table has no row for it, so it borrows the HTTP status
 * as its code.
 *
 * @example
 * ```ts
 * import { ReferenceServer, WireFormat } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const answer = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     const response = yield* Effect.promise(() => fetch(`${server.baseUrl}/api/v3/nowhere`))
 *     return { status: response.status, body: yield* Effect.promise(() => response.json()) }
 *   }).pipe(Effect.provide(ReferenceServer.layer()))
 * )
 * assert.deepStrictEqual(answer, {
 *   status: WireFormat.notFound.status,
 *   body: { code: WireFormat.notFound.code, msg: WireFormat.notFound.msg }
 * })
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const notFound = { status: 404, code: 404, msg: "Not found." } as const
