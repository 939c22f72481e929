/**
 * One universal transfer, read tolerantly as docs/wire-contract.md ("Records") says: the record as
 * users see it, the record as it arrives, the field-by-field reader, its identity and order.
 *
 * @since 0.2.0
 */
import type { DecimalString } from "./Decimal.js"
import { readDecimalString } from "./Decimal.js"
import type { CompiledDecoder } from "./Field.js"
import { compareIds, compiledArray, readId, readMillis, readOptionalText, readText } from "./Field.js"

/**
 * Transfer status. Documented values are listed; any other value the service sends is kept.
 *
 * @example
 * ```ts
 * import type * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const settled = (status: TransferRecord.TransferStatus): boolean => status !== "PENDING"
 * assert.strictEqual(settled("SUCCESS"), true)
 * assert.strictEqual(settled("PENDING"), false)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type TransferStatus = "SUCCESS" | "FAILED" | "PENDING" | (string & {})

/**
 * Account types. The exchange's pages show `SPOT`, `FUTURES`, `FUTURE` and `ISOLATED_MARGIN`
 * (`accountTypes`); any other non-empty value the service sends is kept as received.
 *
 * @example
 * ```ts
 * import type * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * // The broker endpoint's own example spells the futures account `FUTURE`, other pages `FUTURES`.
 * const futures = (type: TransferRecord.AccountType): boolean => type === "FUTURES" || type === "FUTURE"
 * assert.strictEqual(futures("FUTURE"), true)
 * assert.strictEqual(futures("MARGIN"), false)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type AccountType = "SPOT" | "FUTURES" | "FUTURE" | "ISOLATED_MARGIN" | (string & {})

/**
 * The account types the exchange's pages show, in its spelling (docs/wire-contract.md, "Account
 * types"): `SPOT` and `FUTURES` (the broker endpoints' list), `FUTURE` (the futures account as the
 * broker transfer-history example spells it) and `ISOLATED_MARGIN` (the universal-transfer pages). The
 * query schema accepts any non-empty text and the service is the judge; the CLI sends any word of
 * letters, digits and `_` and warns about one outside this list.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * assert.deepStrictEqual(TransferRecord.accountTypes, ["SPOT", "FUTURES", "FUTURE", "ISOLATED_MARGIN"])
 * const documented = (type: string): boolean => (TransferRecord.accountTypes as ReadonlyArray<string>).includes(type)
 * assert.strictEqual(documented("FUTURE"), true)
 * assert.strictEqual(documented("MARGIN"), false)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const accountTypes = ["SPOT", "FUTURES", "FUTURE", "ISOLATED_MARGIN"] as const

/**
 * The documented transfer statuses.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * assert.deepStrictEqual(TransferRecord.transferStatuses, ["SUCCESS", "FAILED", "PENDING"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const transferStatuses = ["SUCCESS", "FAILED", "PENDING"] as const

/**
 * A transfer record as exposed to users. `clientTranId`, `fromAccount`, `toAccount`, `fromSymbol`
 * and `toSymbol` are `""` when the service sends `null` or omits them.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const show = (r: TransferRecord.TransferRecord) =>
 *   `${r.tranId}: ${r.amount} ${r.asset} ${r.fromAccountType} → ${r.toAccountType}`
 * const transfer = TransferRecord.read({
 *   tranId: 11945860693,
 *   asset: "BTC",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   clientTranId: null,
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * })!
 * assert.strictEqual(show(transfer), "11945860693: 0.10000000 BTC SPOT → FUTURES")
 * assert.strictEqual(transfer.clientTranId, "")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferRecord {
  readonly tranId: string
  readonly clientTranId: string
  readonly fromAccount: string
  readonly toAccount: string
  readonly asset: string
  readonly amount: DecimalString
  readonly fromAccountType: AccountType
  readonly toAccountType: AccountType
  readonly fromSymbol: string
  readonly toSymbol: string
  readonly status: TransferStatus
  readonly timestamp: number
}

/**
 * The record as it arrives: both symbol spellings, nullable text, ids and times as numbers or text.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const wire: TransferRecord.TransferRecordEncoded = {
 *   tranId: 11945860693,
 *   asset: "BTC",
 *   amount: "0.1",
 *   fromsymbol: "BTCUSDT",
 *   timestamp: "1544433325000"
 * }
 * const transfer = TransferRecord.read(wire)!
 * assert.strictEqual(transfer.tranId, "11945860693")
 * assert.strictEqual(transfer.fromSymbol, "BTCUSDT")
 * assert.strictEqual(transfer.timestamp, 1544433325000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferRecordEncoded {
  readonly tranId: string | number
  readonly clientTranId?: string | null | undefined
  readonly fromAccount?: string | null | undefined
  readonly toAccount?: string | null | undefined
  readonly asset: string
  readonly amount: string
  readonly fromAccountType?: string | null | undefined
  readonly toAccountType?: string | null | undefined
  readonly fromSymbol?: string | null | undefined
  readonly fromsymbol?: string | null | undefined
  readonly toSymbol?: string | null | undefined
  readonly tosymbol?: string | null | undefined
  readonly status?: string | null | undefined
  readonly timestamp: number | string
}

/**
 * A wire record with its fields read by the field rules: both symbol spellings are there, as the
 * service may send either (a schema's intermediate value, before `fromFields`).
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const wire: TransferRecord.WireFields = {
 *   tranId: "1", clientTranId: "", fromAccount: "", toAccount: "", asset: "BTC",
 *   amount: TransferRecord.read({ tranId: 1, asset: "BTC", amount: "1", timestamp: 1 })!.amount,
 *   fromAccountType: "SPOT", toAccountType: "FUTURES", fromSymbol: "", fromsymbol: "BTCUSDT", toSymbol: "",
 *   status: "SUCCESS", timestamp: 1
 * }
 * assert.strictEqual(TransferRecord.fromFields(wire).fromSymbol, "BTCUSDT")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface WireFields extends Omit<TransferRecord, "fromSymbol" | "toSymbol"> {
  readonly fromSymbol: string
  readonly fromsymbol?: string | undefined
  readonly toSymbol: string
  readonly tosymbol?: string | undefined
}

// A symbol in the sample's spelling, in the other when the sample's is empty.
const symbolOf = (sample: string, other: string | undefined): string => sample !== "" ? sample : (other ?? "")

/**
 * The record a wire record stands for: each symbol in the sample's spelling, in the other when the
 * sample's is empty.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const record = TransferRecord.read({ tranId: 1, asset: "BTC", amount: "1", timestamp: 1 })!
 * assert.strictEqual(TransferRecord.fromFields({ ...record, fromsymbol: "BTCUSDT" }).fromSymbol, "BTCUSDT")
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromFields = (w: WireFields): TransferRecord => ({
  tranId: w.tranId,
  clientTranId: w.clientTranId,
  fromAccount: w.fromAccount,
  toAccount: w.toAccount,
  asset: w.asset,
  amount: w.amount,
  fromAccountType: w.fromAccountType,
  toAccountType: w.toAccountType,
  fromSymbol: symbolOf(w.fromSymbol, w.fromsymbol),
  toSymbol: symbolOf(w.toSymbol, w.tosymbol),
  status: w.status,
  timestamp: w.timestamp
})

/**
 * Reads a wire record by the field rules and maps it as `fromFields` does, in one pass: the record,
 * or `undefined` when a field breaks its rule. Per field one property read, its rule and a check,
 * then one object literal: written out field by field, as a loop over the fields by name costs
 * several times as much (packages/bench/README.md, "Page decoding"). Each line's schema carries it as
 * its compiled decoder, and a test holds the two to each other.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const r = TransferRecord.read({ tranId: 11945860693, asset: "BTC", amount: "0.1", clientTranId: null, timestamp: "1" })
 * assert.strictEqual(r?.tranId, "11945860693")
 * assert.strictEqual(r?.clientTranId, "")
 * assert.strictEqual(TransferRecord.read({ tranId: "", asset: "BTC", amount: "1", timestamp: 1 }), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const read: CompiledDecoder<TransferRecord> = (u) => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const w = u as { readonly [K in keyof TransferRecordEncoded]-?: unknown }
  const tranId = readId(w.tranId)
  if (tranId === undefined) return undefined
  const clientTranId = readOptionalText(w.clientTranId)
  if (clientTranId === undefined) return undefined
  const fromAccount = readOptionalText(w.fromAccount)
  if (fromAccount === undefined) return undefined
  const toAccount = readOptionalText(w.toAccount)
  if (toAccount === undefined) return undefined
  const asset = readText(w.asset)
  if (asset === undefined) return undefined
  const amount = readDecimalString(w.amount)
  if (amount === undefined) return undefined
  const fromAccountType = readOptionalText(w.fromAccountType)
  if (fromAccountType === undefined) return undefined
  const toAccountType = readOptionalText(w.toAccountType)
  if (toAccountType === undefined) return undefined
  const fromSymbol = readOptionalText(w.fromSymbol)
  if (fromSymbol === undefined) return undefined
  const fromsymbol = readOptionalText(w.fromsymbol)
  if (fromsymbol === undefined) return undefined
  const toSymbol = readOptionalText(w.toSymbol)
  if (toSymbol === undefined) return undefined
  const tosymbol = readOptionalText(w.tosymbol)
  if (tosymbol === undefined) return undefined
  const status = readOptionalText(w.status)
  if (status === undefined) return undefined
  const timestamp = readMillis(w.timestamp)
  if (timestamp === undefined) return undefined
  return {
    tranId,
    clientTranId,
    fromAccount,
    toAccount,
    asset,
    amount,
    fromAccountType,
    toAccountType,
    fromSymbol: symbolOf(fromSymbol, fromsymbol),
    toSymbol: symbolOf(toSymbol, tosymbol),
    status,
    timestamp
  }
}

/**
 * Reads a page of wire records (`read` for each): the records, or `undefined` when any breaks a rule.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const page = TransferRecord.readPage([{ tranId: 2, asset: "USDT", amount: "5", timestamp: 1 }])
 * assert.deepStrictEqual(page?.map(TransferRecord.key), ["2"])
 * assert.strictEqual(TransferRecord.readPage({}), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readPage: CompiledDecoder<ReadonlyArray<TransferRecord>> = compiledArray(read)

/**
 * The identity of a transfer: its `tranId`.
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const r = TransferRecord.read({
 *   tranId: 42,
 *   asset: "BTC",
 *   amount: "1",
 *   timestamp: 1
 * })!
 * assert.strictEqual(TransferRecord.key(r), "42")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const key = (record: TransferRecord): string => record.tranId

/**
 * Ascending order: by `timestamp`, ties by `tranId` (numeric-aware).
 *
 * @example
 * ```ts
 * import * as TransferRecord from "@broker-history/core/record/TransferRecord"
 *
 * const page = TransferRecord.readPage([
 *   { tranId: "10", asset: "BTC", amount: "1", timestamp: 2 },
 *   { tranId: "9", asset: "BTC", amount: "1", timestamp: 2 },
 *   { tranId: "11", asset: "BTC", amount: "1", timestamp: 1 }
 * ])!
 * assert.deepStrictEqual([...page].sort(TransferRecord.compare).map(TransferRecord.key), ["11", "9", "10"])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const compare = (a: TransferRecord, b: TransferRecord): number =>
  a.timestamp !== b.timestamp ? (a.timestamp < b.timestamp ? -1 : 1) : compareIds(a.tranId, b.tranId)
