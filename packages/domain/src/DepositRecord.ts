/**
 * One sub-account deposit, decoded tolerantly as docs/wire-contract.md ("Records") says.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { DecimalString, readDecimalString } from "./Decimal.js"
import type { CompiledDecoder } from "./Field.js"
import {
  compareIds,
  compiledArray,
  Millis,
  NumericText,
  OptionalText,
  readMillis,
  readNumericText,
  readOptionalText,
  readText,
  withCompiledDecoder
} from "./Field.js"

/**
 * MEXC's deposit status codes and their names. The service may send the code as a number or as text;
 * records expose it as text (`"5"`), and unknown codes are kept.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 *
 * assert.strictEqual(DepositRecord.statusNames["5"], "SUCCESS")
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const statusNames: Readonly<Record<string, string>> = {
  "1": "SMALL",
  "2": "TIME_DELAY",
  "3": "LARGE_DELAY",
  "4": "PENDING",
  "5": "SUCCESS",
  "6": "AUDITING",
  "7": "REJECTED",
  "8": "REFUND",
  "9": "PRE_SUCCESS",
  "10": "INVALID",
  "11": "RESTRICTED",
  "12": "COMPLETED"
}

/**
 * The name of a deposit status (`"5"` → `"SUCCESS"`); an unknown status is returned unchanged.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 *
 * assert.strictEqual(DepositRecord.statusName("7"), "REJECTED")
 * assert.strictEqual(DepositRecord.statusName("99"), "99")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const statusName = (status: string): string => statusNames[status] ?? status

/**
 * A deposit record as exposed to users. Text fields that arrive as `null` or are missing are `""`;
 * `status`, `unlockConfirm` and `confirmTimes` are text whatever the service sent.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
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
 * @since 0.1.0
 * @category models
 */
export interface DepositRecord {
  readonly amount: DecimalString
  readonly coin: string
  readonly network: string
  readonly status: string
  readonly address: string
  readonly addressTag: string
  readonly txId: string
  readonly unlockConfirm: string
  readonly confirmTimes: string
  readonly insertTime: number
  readonly memo: string
}

/**
 * The record as it arrives.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const wire: DepositRecord.DepositRecordEncoded = {
 *   amount: "1",
 *   coin: "USDT",
 *   status: 5,
 *   network: null,
 *   insertTime: 1
 * }
 * const deposit = Schema.decodeSync(DepositRecord.DepositRecord)(wire)
 * assert.strictEqual(deposit.status, "5")
 * assert.strictEqual(deposit.network, "")
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface DepositRecordEncoded {
  readonly amount: string
  readonly coin: string
  readonly network?: string | null | undefined
  readonly status?: string | number | null | undefined
  readonly address?: string | null | undefined
  readonly addressTag?: string | null | undefined
  readonly txId?: string | null | undefined
  readonly unlockConfirm?: string | number | null | undefined
  readonly confirmTimes?: string | number | null | undefined
  readonly insertTime: number | string
  readonly memo?: string | null | undefined
}

// A wire record read by the same field rules as `DepositRecord`, in one pass: per field one property
// read, its rule and a check, then one object literal. Written out field by field: a loop over the
// fields by name costs several times as much (packages/bench/README.md, "Page decoding").
// test/CompiledDecoder.test.ts holds it to the schema.
const compiledRecord: CompiledDecoder<DepositRecord> = (u) => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const w = u as { readonly [K in keyof DepositRecordEncoded]-?: unknown }
  const amount = readDecimalString(w.amount)
  if (amount === undefined) return undefined
  const coin = readText(w.coin)
  if (coin === undefined) return undefined
  const network = readOptionalText(w.network)
  if (network === undefined) return undefined
  const status = readNumericText(w.status)
  if (status === undefined) return undefined
  const address = readOptionalText(w.address)
  if (address === undefined) return undefined
  const addressTag = readOptionalText(w.addressTag)
  if (addressTag === undefined) return undefined
  const txId = readOptionalText(w.txId)
  if (txId === undefined) return undefined
  const unlockConfirm = readNumericText(w.unlockConfirm)
  if (unlockConfirm === undefined) return undefined
  const confirmTimes = readNumericText(w.confirmTimes)
  if (confirmTimes === undefined) return undefined
  const insertTime = readMillis(w.insertTime)
  if (insertTime === undefined) return undefined
  const memo = readOptionalText(w.memo)
  if (memo === undefined) return undefined
  return { amount, coin, network, status, address, addressTag, txId, unlockConfirm, confirmTimes, insertTime, memo }
}

/**
 * Schema of a deposit record. Unknown extra fields are ignored. It carries a compiled decoder (the
 * same rules in one pass) that `Field.decoder` uses.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
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
 * @since 0.1.0
 * @category schemas
 */
export const DepositRecord: Schema.Schema<DepositRecord, DepositRecordEncoded> = withCompiledDecoder(
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
  }).annotations({ identifier: "DepositRecord" }) as Schema.Schema<DepositRecord, DepositRecordEncoded>,
  compiledRecord
)

/**
 * A page of deposit records: the body of a successful deposit-history answer.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(DepositRecord.DepositPage)([
 *   { amount: "1.5", coin: "USDT", status: "5", insertTime: "1654064568000" }
 * ])
 * assert.strictEqual(page[0].insertTime, 1654064568000)
 * assert.deepStrictEqual(Schema.decodeUnknownSync(DepositRecord.DepositPage)([]), [])
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const DepositPage: Schema.Schema<ReadonlyArray<DepositRecord>, ReadonlyArray<DepositRecordEncoded>> =
  withCompiledDecoder(Schema.Array(DepositRecord), compiledArray(compiledRecord))

/**
 * The identity of a deposit: `txId` + `coin` + `network` + `address` (a txId may carry several
 * outputs), joined with a separator that cannot appear in those fields unescaped.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 *
 * const output = { txId: "0xabc", coin: "USDT", network: "TRC20", address: "Txyz" }
 * assert.strictEqual(DepositRecord.key(output), `["0xabc","USDT","TRC20","Txyz"]`)
 * assert.notStrictEqual(DepositRecord.key(output), DepositRecord.key({ ...output, address: "Tother" }))
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const key = (record: Pick<DepositRecord, "txId" | "coin" | "network" | "address">): string =>
  JSON.stringify([record.txId, record.coin, record.network, record.address])

/**
 * Ascending order: by `insertTime`, ties by identity.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(DepositRecord.DepositPage)([
 *   { amount: "1", coin: "USDT", txId: "0xb", insertTime: 2 },
 *   { amount: "1", coin: "USDT", txId: "0xa", insertTime: 2 },
 *   { amount: "1", coin: "USDT", txId: "0xc", insertTime: 1 }
 * ])
 * assert.deepStrictEqual([...page].sort(DepositRecord.compare).map((d) => d.txId), ["0xc", "0xa", "0xb"])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const compare = (a: DepositRecord, b: DepositRecord): number =>
  a.insertTime !== b.insertTime ? (a.insertTime < b.insertTime ? -1 : 1) : compareIds(key(a), key(b))

/**
 * True when two versions of the same deposit differ in what changes over time (`status`,
 * `confirmTimes`, `unlockConfirm`) or in any other field.
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(DepositRecord.DepositRecord)
 * const pending = decode({ amount: "1", coin: "USDT", txId: "0xa", status: 4, confirmTimes: 3, insertTime: 1 })
 * const credited = decode({ amount: "1", coin: "USDT", txId: "0xa", status: 5, confirmTimes: 12, insertTime: 1 })
 * assert.strictEqual(DepositRecord.changed(pending, credited), true)
 * assert.strictEqual(DepositRecord.changed(credited, credited), false)
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const changed = (a: DepositRecord, b: DepositRecord): boolean =>
  a.status !== b.status || a.confirmTimes !== b.confirmTimes || a.unlockConfirm !== b.unlockConfirm ||
  a.amount !== b.amount || a.addressTag !== b.addressTag || a.memo !== b.memo || a.insertTime !== b.insertTime
