/**
 * Exact decimal text: amounts are kept byte for byte as the service sends them, never as `number`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

const decimalText = /^-?\d+(\.\d+)?$/

/**
 * True for decimal text (`"12.5"`, `"-3"`), the rule `DecimalString` checks, as a plain predicate.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain"
 *
 * assert.strictEqual(Decimal.isDecimalText("-12.5"), true)
 * assert.strictEqual(Decimal.isDecimalText("1e5"), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isDecimalText = (text: string): boolean => decimalText.test(text)

/**
 * A decimal number as text (`"0.10000000"`, `"-12"`, `"3."` is rejected). Decoding checks the shape
 * and keeps the text unchanged.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Decimal.DecimalString)("0.10000000"), "0.10000000")
 * assert.ok(Either.isLeft(Schema.decodeUnknownEither(Decimal.DecimalString)("3.")))
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const DecimalString = Schema.String.pipe(
  Schema.pattern(decimalText, { message: () => "expected decimal text such as \"12.5\"" }),
  Schema.brand("DecimalString")
)

/**
 * Exact decimal text (branded string).
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const total = (amounts: ReadonlyArray<Decimal.DecimalString>): string => amounts.join(" + ")
 * const amount: Decimal.DecimalString = Schema.decodeUnknownSync(Decimal.DecimalString)("12.5")
 * assert.strictEqual(total([amount, amount]), "12.5 + 12.5")
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type DecimalString = typeof DecimalString.Type

/**
 * Reads decimal text: a string that `isDecimalText` accepts, as `DecimalString`; `undefined` for
 * anything else. The rule of `DecimalString`, as a plain function for compiled decoders.
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/domain"
 *
 * assert.strictEqual(Decimal.readDecimalString("0.10000000"), "0.10000000")
 * assert.strictEqual(Decimal.readDecimalString("3."), undefined)
 * assert.strictEqual(Decimal.readDecimalString(3), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readDecimalString = (u: unknown): DecimalString | undefined =>
  typeof u === "string" && decimalText.test(u) ? u as DecimalString : undefined
