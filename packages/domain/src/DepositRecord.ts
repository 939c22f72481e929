/**
 * One sub-account deposit (SPEC.md §2.2), decoded tolerantly as DECISIONS.md "Records" says.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { DecimalString, isDecimalText } from "./Decimal.js"
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
  withCompiledDecoder
} from "./Field.js"

/**
 * MEXC's deposit status codes and their names. The service may send the code as a number or as text;
 * records expose it as text (`"5"`), and unknown codes are kept.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * DepositRecord.statusNames["5"] // "SUCCESS"
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
 * import { DepositRecord } from "@broker-history/domain"
 * DepositRecord.statusName("7") // "REJECTED"
 */
export const statusName = (status: string): string => statusNames[status] ?? status

/**
 * A deposit record as exposed to users. Text fields that arrive as `null` or are missing are `""`;
 * `status`, `unlockConfirm` and `confirmTimes` are text whatever the service sent.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * const show = (d: DepositRecord.DepositRecord) => `${d.amount} ${d.coin} ${DepositRecord.statusName(d.status)}`
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
 * import type { DepositRecord } from "@broker-history/domain"
 * const wire: DepositRecord.DepositRecordEncoded = { amount: "1", coin: "USDT", status: 5, insertTime: 1 }
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

/** One wire record decoded by the same field rules as `DepositRecord`, in one pass. */
const compiledRecord: CompiledDecoder<DepositRecord> = (u) => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const w = u as { readonly [field: string]: unknown }
  const amount = w.amount
  const coin = w.coin
  const network = readOptionalText(w.network)
  const status = readNumericText(w.status)
  const address = readOptionalText(w.address)
  const addressTag = readOptionalText(w.addressTag)
  const txId = readOptionalText(w.txId)
  const unlockConfirm = readNumericText(w.unlockConfirm)
  const confirmTimes = readNumericText(w.confirmTimes)
  const insertTime = readMillis(w.insertTime)
  const memo = readOptionalText(w.memo)
  if (
    typeof amount !== "string" || !isDecimalText(amount) || typeof coin !== "string" || network === undefined ||
    status === undefined || address === undefined || addressTag === undefined || txId === undefined ||
    unlockConfirm === undefined || confirmTimes === undefined || insertTime === undefined || memo === undefined
  ) return undefined
  return {
    amount: amount as DecimalString,
    coin,
    network,
    status,
    address,
    addressTag,
    txId,
    unlockConfirm,
    confirmTimes,
    insertTime,
    memo
  }
}

/**
 * Schema of a deposit record. Unknown extra fields are ignored. It carries a compiled decoder (the
 * same rules in one pass) that `Field.decoder` uses.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 * const d = Schema.decodeUnknownSync(DepositRecord.DepositRecord)({
 *   amount: "50000.00000000", coin: "USDT", network: "TRC20", status: 5, address: "Txyz",
 *   addressTag: null, txId: "0xabc", unlockConfirm: "12", confirmTimes: 12, insertTime: 1654064568000, memo: null
 * })
 * d.status // "5"
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
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(DepositRecord.DepositPage)([]) // []
 */
export const DepositPage: Schema.Schema<ReadonlyArray<DepositRecord>, ReadonlyArray<DepositRecordEncoded>> =
  withCompiledDecoder(Schema.Array(DepositRecord), compiledArray(compiledRecord))

/**
 * The identity of a deposit: `txId` + `coin` + `network` + `address` (a txId may carry several
 * outputs), joined with a separator that cannot appear in those fields unescaped.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * declare const d: DepositRecord.DepositRecord
 * const id: string = DepositRecord.key(d)
 */
export const key = (record: Pick<DepositRecord, "txId" | "coin" | "network" | "address">): string =>
  JSON.stringify([record.txId, record.coin, record.network, record.address])

/**
 * Ascending order: by `insertTime`, ties by identity.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * declare const records: Array<DepositRecord.DepositRecord>
 * records.sort(DepositRecord.compare)
 */
export const compare = (a: DepositRecord, b: DepositRecord): number =>
  a.insertTime !== b.insertTime ? (a.insertTime < b.insertTime ? -1 : 1) : compareIds(key(a), key(b))

/**
 * True when two versions of the same deposit differ in what changes over time (`status`,
 * `confirmTimes`, `unlockConfirm`) or in any other field.
 *
 * @example
 * import { DepositRecord } from "@broker-history/domain"
 * declare const before: DepositRecord.DepositRecord
 * declare const after: DepositRecord.DepositRecord
 * DepositRecord.changed(before, after)
 */
export const changed = (a: DepositRecord, b: DepositRecord): boolean =>
  a.status !== b.status || a.confirmTimes !== b.confirmTimes || a.unlockConfirm !== b.unlockConfirm ||
  a.amount !== b.amount || a.addressTag !== b.addressTag || a.memo !== b.memo || a.insertTime !== b.insertTime
