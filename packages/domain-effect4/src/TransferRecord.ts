/**
 * One universal transfer, decoded tolerantly as docs/wire-contract.md ("Records") says.
 *
 * @since 0.2.0
 */
import * as Core from "@broker-history/core/record/TransferRecord"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { DecimalString } from "./Decimal.js"
import { Id, Millis, OptionalText, withCompiledDecoder } from "./Field.js"

/**
 * The record's plain parts, from `@broker-history/core/record/TransferRecord`: the types
 * (`TransferStatus`, `AccountType`, `TransferRecordEncoded`, `WireFields`), the documented values
 * (`accountTypes`, `transferStatuses`), the one-pass reader (`read`, `readPage`, `fromFields`), the
 * identity (`key`) and the order (`compare`). The schemas below are built on them.
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/domain-effect4"
 *
 * assert.deepStrictEqual(TransferRecord.transferStatuses, ["SUCCESS", "FAILED", "PENDING"])
 * const r = TransferRecord.read({ tranId: 42, asset: "BTC", amount: "1", timestamp: 1 })
 * assert.strictEqual(r === undefined ? undefined : TransferRecord.key(r), "42")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export * from "@broker-history/core/record/TransferRecord"

/**
 * A transfer record as exposed to users. `clientTranId`, `fromAccount`, `toAccount`, `fromSymbol`
 * and `toSymbol` are `""` when the service sends `null` or omits them.
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const show = (r: TransferRecord.TransferRecord) =>
 *   `${r.tranId}: ${r.amount} ${r.asset} ${r.fromAccountType} → ${r.toAccountType}`
 * const transfer = Schema.decodeUnknownSync(TransferRecord.TransferRecord)({
 *   tranId: 11945860693,
 *   asset: "BTC",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   clientTranId: null,
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * })
 * assert.strictEqual(show(transfer), "11945860693: 0.10000000 BTC SPOT → FUTURES")
 * assert.strictEqual(transfer.clientTranId, "")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type TransferRecord = Core.TransferRecord

// The wire record with its fields read: both symbol spellings, as the service may send either.
const Wire = Schema.Struct({
  tranId: Id,
  clientTranId: OptionalText,
  fromAccount: OptionalText,
  toAccount: OptionalText,
  asset: Schema.String,
  amount: DecimalString,
  fromAccountType: OptionalText,
  toAccountType: OptionalText,
  fromSymbol: OptionalText,
  fromsymbol: Schema.optionalKey(OptionalText),
  toSymbol: OptionalText,
  tosymbol: Schema.optionalKey(OptionalText),
  status: OptionalText,
  timestamp: Millis
})

const Fields = Schema.Struct({
  tranId: Schema.String,
  clientTranId: Schema.String,
  fromAccount: Schema.String,
  toAccount: Schema.String,
  asset: Schema.String,
  amount: Schema.toType(DecimalString),
  fromAccountType: Schema.String,
  toAccountType: Schema.String,
  fromSymbol: Schema.String,
  toSymbol: Schema.String,
  status: Schema.String,
  timestamp: Schema.Number
})

/**
 * Schema of a transfer record: decodes the wire shape (either symbol spelling, `null` text, numeric
 * ids) and encodes to the sample spelling (`fromSymbol`/`toSymbol`). Unknown extra fields are ignored.
 * It carries a compiled decoder (`read`, the same rules in one pass) that `Field.decoder` uses.
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const r = Schema.decodeUnknownSync(TransferRecord.TransferRecord)({
 *   tranId: "11945860693",
 *   fromAccount: "master@test.com",
 *   toAccount: "sub@test.com",
 *   clientTranId: null,
 *   asset: "BTC",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   fromsymbol: "",
 *   tosymbol: "",
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * })
 * assert.strictEqual(r.amount, "0.10000000")
 * assert.strictEqual(r.clientTranId, "")
 * const encoded = Schema.encodeSync(TransferRecord.TransferRecord)(r)
 * assert.strictEqual(encoded.fromSymbol, "")
 * assert.strictEqual("fromsymbol" in encoded, false)
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const TransferRecord: Schema.Codec<TransferRecord, Core.TransferRecordEncoded> = withCompiledDecoder(
  Wire.pipe(
    Schema.decodeTo(Fields, SchemaTransformation.transform({ decode: Core.fromFields, encode: (r) => r }))
  ).annotate({ identifier: "TransferRecord" }),
  Core.read
)

/**
 * A page of transfer records: the body of a successful transfer-history answer.
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const page = Schema.decodeUnknownSync(TransferRecord.TransferPage)([
 *   { tranId: 2, asset: "USDT", amount: "5", timestamp: 1544433325001 },
 *   { tranId: 1, asset: "USDT", amount: "7.5", timestamp: 1544433325000 }
 * ])
 * assert.deepStrictEqual(page.map((r) => r.tranId), ["2", "1"])
 * assert.deepStrictEqual(Schema.decodeUnknownSync(TransferRecord.TransferPage)([]), [])
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const TransferPage: Schema.Codec<ReadonlyArray<TransferRecord>, ReadonlyArray<Core.TransferRecordEncoded>> =
  withCompiledDecoder(Schema.Array(TransferRecord), Core.readPage)
