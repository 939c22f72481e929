/**
 * Exact decimal text: amounts are kept byte for byte as the service sends them, never as `number`.
 *
 * @since 0.2.0
 */
import type { DecimalString as Text } from "@broker-history/core/record/Decimal"
import { isDecimalText } from "@broker-history/core/record/Decimal"
import * as Schema from "effect/Schema"

/**
 * The rule as a predicate (`isDecimalText`) and as a reader (`readDecimalString`), from
 * `@broker-history/core/record/Decimal`: `DecimalString` is built on them.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Decimal.isDecimalText("-12.5"), true)
 * assert.strictEqual(Decimal.readDecimalString("3."), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export * from "@broker-history/core/record/Decimal"

/**
 * A decimal number as text (`"0.10000000"`, `"-12"`, `"3."` is rejected). Decoding checks the shape
 * and keeps the text unchanged.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Decimal.DecimalString)("0.10000000"), "0.10000000")
 * assert.ok(Result.isFailure(Schema.decodeUnknownResult(Decimal.DecimalString)("3.")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const DecimalString: Schema.Codec<Text, string> = Schema.String.pipe(
  Schema.refine((text): text is Text => isDecimalText(text), { message: "expected decimal text such as \"12.5\"" })
)

/**
 * Exact decimal text (branded string).
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const total = (amounts: ReadonlyArray<Decimal.DecimalString>): string => amounts.join(" + ")
 * const amount: Decimal.DecimalString = Schema.decodeUnknownSync(Decimal.DecimalString)("12.5")
 * assert.strictEqual(total([amount, amount]), "12.5 + 12.5")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type DecimalString = Text
