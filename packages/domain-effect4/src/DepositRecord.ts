/**
 * One sub-account deposit, decoded tolerantly as docs/wire-contract.md ("Records") says.
 *
 * @since 0.2.0
 */
import * as Core from "@broker-history/core/record/DepositRecord"
import * as Schema from "effect/Schema"
import { DecimalString } from "./Decimal.js"
import { Millis, NumericText, OptionalText, withCompiledDecoder } from "./Field.js"

/**
 * The record's plain parts, from `@broker-history/core/record/DepositRecord`: the type as it arrives
 * (`DepositRecordEncoded`), the status names (`statusNames`, `statusName`), the one-pass reader
 * (`read`, `readPage`), the identity (`key`), the order (`compare`) and `changed`. The schemas below
 * are built on them.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(DepositRecord.statusName("5"), "SUCCESS")
 * const d = DepositRecord.read({ amount: "1", coin: "USDT", txId: "0xa", insertTime: 1 })
 * assert.strictEqual(d === undefined ? undefined : DepositRecord.key(d), `["0xa","USDT","",""]`)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export * from "@broker-history/core/record/DepositRecord"

/**
 * A deposit record as exposed to users. Text fields that arrive as `null` or are missing are `""`;
 * `status`, `unlockConfirm` and `confirmTimes` are text whatever the service sent.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const show = (d: DepositRecord.DepositRecord) => `${d.amount} ${d.coin} ${DepositRecord.statusName(d.status)}`
 * const deposit = Schema.decodeUnknownSync(DepositRecord.DepositRecord)({
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   status: 5,
 *   insertTime: 1654064568000
 * })
 * assert.strictEqual(show(deposit), "50000.00000000 USDT SUCCESS")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type DepositRecord = Core.DepositRecord

/**
 * Schema of a deposit record. Unknown extra fields are ignored. It carries a compiled decoder
 * (`read`, the same rules in one pass) that `Field.decoder` uses.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const d = Schema.decodeUnknownSync(DepositRecord.DepositRecord)({
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   network: "TRC20",
 *   status: 5,
 *   address: "Txyz",
 *   addressTag: null,
 *   txId: "0xabc",
 *   unlockConfirm: "12",
 *   confirmTimes: 12,
 *   insertTime: 1654064568000,
 *   memo: null
 * })
 * assert.strictEqual(d.status, "5")
 * assert.strictEqual(d.confirmTimes, "12")
 * assert.strictEqual(d.addressTag, "")
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const DepositRecord: Schema.Codec<DepositRecord, Core.DepositRecordEncoded> = withCompiledDecoder(
  Schema.Struct({
    amount: DecimalString,
    coin: Schema.String,
    network: OptionalText,
    status: NumericText,
    address: OptionalText,
    addressTag: OptionalText,
    txId: OptionalText,
    unlockConfirm: NumericText,
    confirmTimes: NumericText,
    insertTime: Millis,
    memo: OptionalText
  }).annotate({ identifier: "DepositRecord" }),
  Core.read
)

/**
 * A page of deposit records: the body of a successful deposit-history answer.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(DepositRecord.DepositPage)([
 *   { amount: "1.5", coin: "USDT", status: "5", insertTime: "1654064568000" }
 * ])
 * assert.strictEqual(page[0].insertTime, 1654064568000)
 * assert.deepStrictEqual(Schema.decodeUnknownSync(DepositRecord.DepositPage)([]), [])
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const DepositPage: Schema.Codec<ReadonlyArray<DepositRecord>, ReadonlyArray<Core.DepositRecordEncoded>> =
  withCompiledDecoder(Schema.Array(DepositRecord), Core.readPage)
