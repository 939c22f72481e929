/**
 * Exact decimal text: amounts are kept byte for byte as the service sends them, never as `number`.
 *
 * @since 0.2.0
 */

const decimalText = /^-?\d+(\.\d+)?$/

/**
 * True for decimal text (`"12.5"`, `"-3"`) (a sign, digits, and a fraction of at least one digit).
 *
 * @example
 * ```ts
 * import * as Decimal from "@broker-history/core/record/Decimal"
 *
 * assert.strictEqual(Decimal.isDecimalText("-12.5"), true)
 * assert.strictEqual(Decimal.isDecimalText("1e5"), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isDecimalText = (text: string): boolean => decimalText.test(text)

declare const DecimalBrand: unique symbol

/**
 * Exact decimal text (a branded string): text that `isDecimalText` accepts, as `readDecimalString`
 * or a schema of it returns it.
 *
 * @example
 * ```ts
 * import * as Decimal from "@broker-history/core/record/Decimal"
 *
 * const total = (amounts: ReadonlyArray<Decimal.DecimalString>): string => amounts.join(" + ")
 * const amount = Decimal.readDecimalString("12.5")
 * assert.ok(amount !== undefined)
 * assert.strictEqual(total([amount, amount]), "12.5 + 12.5")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type DecimalString = string & { readonly [DecimalBrand]: "DecimalString" }

/**
 * Reads decimal text: a string that `isDecimalText` accepts, as `DecimalString`; `undefined` for
 * anything else.
 *
 * @example
 * ```ts
 * import * as Decimal from "@broker-history/core/record/Decimal"
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
