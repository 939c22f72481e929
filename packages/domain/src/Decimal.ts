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
 * import { Decimal } from "@broker-history/domain"
 * Decimal.isDecimalText("1e5") // false
 */
export const isDecimalText = (text: string): boolean => decimalText.test(text)

/**
 * A decimal number as text (`"0.10000000"`, `"-12"`, `"3."` is rejected). Decoding checks the shape
 * and keeps the text unchanged.
 *
 * @example
 * import { Decimal } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Decimal.DecimalString)("0.10000000") // "0.10000000"
 */
export const DecimalString = Schema.String.pipe(
  Schema.pattern(decimalText, { message: () => "expected decimal text such as \"12.5\"" }),
  Schema.brand("DecimalString")
)

/**
 * Exact decimal text (branded string).
 *
 * @example
 * import type { Decimal } from "@broker-history/domain"
 * const describe = (amount: Decimal.DecimalString): string => `amount ${amount}`
 */
export type DecimalString = typeof DecimalString.Type
