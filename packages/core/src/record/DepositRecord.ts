/**
 * One sub-account deposit, read tolerantly as docs/wire-contract.md ("Records") says: the record as
 * users see it, the record as it arrives, the field-by-field reader, its identity, order and changes.
 *
 * @since 0.2.0
 */
import type { DecimalString } from "./Decimal.js"
import { readDecimalString } from "./Decimal.js"
import type { CompiledDecoder } from "./Field.js"
import { compareIds, compiledArray, readMillis, readNumericText, readOptionalText, readText } from "./Field.js"

/**
 * MEXC's deposit status codes and their names. The service may send the code as a number or as text;
 * records expose it as text (`"5"`), and unknown codes are kept.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * assert.strictEqual(DepositRecord.statusNames["5"], "SUCCESS")
 * ```
 *
 * @since 0.2.0
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
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * assert.strictEqual(DepositRecord.statusName("7"), "REJECTED")
 * assert.strictEqual(DepositRecord.statusName("99"), "99")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const statusName = (status: string): string => statusNames[status] ?? status

/**
 * A deposit record as exposed to users. Text fields that arrive as `null` or are missing are `""`;
 * `status`, `unlockConfirm` and `confirmTimes` are text whatever the service sent.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const show = (d: DepositRecord.DepositRecord) => `${d.amount} ${d.coin} ${DepositRecord.statusName(d.status)}`
 * const deposit = DepositRecord.read({
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   status: 5,
 *   insertTime: 1654064568000
 * })!
 * assert.strictEqual(show(deposit), "50000.00000000 USDT SUCCESS")
 * ```
 *
 * @since 0.2.0
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
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const wire: DepositRecord.DepositRecordEncoded = {
 *   amount: "1",
 *   coin: "USDT",
 *   status: 5,
 *   network: null,
 *   insertTime: 1
 * }
 * const deposit = DepositRecord.read(wire)!
 * assert.strictEqual(deposit.status, "5")
 * assert.strictEqual(deposit.network, "")
 * ```
 *
 * @since 0.2.0
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

/**
 * Reads a wire record by the field rules, in one pass: the record, or `undefined` when a field breaks
 * its rule. Per field one property read, its rule and a check, then one object literal: written out
 * field by field, as a loop over the fields by name costs several times as much
 * (packages/bench/README.md, "Page decoding"). Each line's schema carries it as its compiled decoder,
 * and a test holds the two to each other.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const d = DepositRecord.read({ amount: "1", coin: "USDT", status: 5, network: null, insertTime: "1" })
 * assert.strictEqual(d?.status, "5")
 * assert.strictEqual(d?.network, "")
 * assert.strictEqual(DepositRecord.read({ amount: "1.", coin: "USDT", insertTime: 1 }), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const read: CompiledDecoder<DepositRecord> = (u) => {
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
 * Reads a page of wire records (`read` for each): the records, or `undefined` when any breaks a rule.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const page = DepositRecord.readPage([{ amount: "1.5", coin: "USDT", status: "5", insertTime: "1654064568000" }])
 * assert.strictEqual(page?.[0]?.insertTime, 1654064568000)
 * assert.strictEqual(DepositRecord.readPage([{ coin: "USDT" }]), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readPage: CompiledDecoder<ReadonlyArray<DepositRecord>> = compiledArray(read)

/**
 * The identity of a deposit: `txId` + `coin` + `network` + `address` (a txId may carry several
 * outputs), joined with a separator that cannot appear in those fields unescaped.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const output = { txId: "0xabc", coin: "USDT", network: "TRC20", address: "Txyz" }
 * assert.strictEqual(DepositRecord.key(output), `["0xabc","USDT","TRC20","Txyz"]`)
 * assert.notStrictEqual(DepositRecord.key(output), DepositRecord.key({ ...output, address: "Tother" }))
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const key = (record: Pick<DepositRecord, "txId" | "coin" | "network" | "address">): string =>
  JSON.stringify([record.txId, record.coin, record.network, record.address])

/**
 * Ascending order: by `insertTime`, ties by identity.
 *
 * @example
 * ```ts
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const page = DepositRecord.readPage([
 *   { amount: "1", coin: "USDT", txId: "0xb", insertTime: 2 },
 *   { amount: "1", coin: "USDT", txId: "0xa", insertTime: 2 },
 *   { amount: "1", coin: "USDT", txId: "0xc", insertTime: 1 }
 * ])!
 * assert.deepStrictEqual([...page].sort(DepositRecord.compare).map((d) => d.txId), ["0xc", "0xa", "0xb"])
 * ```
 *
 * @since 0.2.0
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
 * import * as DepositRecord from "@broker-history/core/record/DepositRecord"
 *
 * const decode = (u: unknown) => DepositRecord.read(u)!
 * const pending = decode({ amount: "1", coin: "USDT", txId: "0xa", status: 4, confirmTimes: 3, insertTime: 1 })
 * const credited = decode({ amount: "1", coin: "USDT", txId: "0xa", status: 5, confirmTimes: 12, insertTime: 1 })
 * assert.strictEqual(DepositRecord.changed(pending, credited), true)
 * assert.strictEqual(DepositRecord.changed(credited, credited), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const changed = (a: DepositRecord, b: DepositRecord): boolean =>
  a.status !== b.status || a.confirmTimes !== b.confirmTimes || a.unlockConfirm !== b.unlockConfirm ||
  a.amount !== b.amount || a.addressTag !== b.addressTag || a.memo !== b.memo || a.insertTime !== b.insertTime
