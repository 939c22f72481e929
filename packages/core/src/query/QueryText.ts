/**
 * A query's parameters received as text (the reference service's side), read before the query's
 * schema applies its rules: the integer parameters must be base-10 integer text. Each line's domain
 * reads them with it (`QueryViolation.fromText`), then validates the values with its schema.
 *
 * @since 0.2.0
 */
import * as QueryViolation from "./QueryViolation.js"

const integerText = /^(0|[1-9]\d{0,15})$/

/**
 * The parameters as values: the integer ones (`integers`) as numbers, the others as text; or the
 * violation of the first integer parameter whose text is not base-10 integer text. The object has a
 * null prototype: a parameter named `__proto__` becomes a key (and the schema rejects it as
 * unknown), it does not set the prototype and vanish.
 *
 * @example
 * ```ts
 * import * as QueryText from "@broker-history/core/query/QueryText"
 *
 * assert.deepStrictEqual({ ...(QueryText.read(["limit"], { coin: "USDT", limit: "20" }) as { input: object }).input }, {
 *   coin: "USDT",
 *   limit: 20
 * })
 * assert.deepStrictEqual(QueryText.read(["limit"], { limit: "0x14" }), {
 *   violation: { parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" }
 * })
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const read = (
  integers: ReadonlyArray<string>,
  params: Readonly<Record<string, string>>
): { readonly input: Record<string, unknown> } | { readonly violation: QueryViolation.QueryViolation } => {
  const input: Record<string, unknown> = Object.create(null)
  for (const name of Object.keys(params)) {
    const value = params[name]!
    if (integers.includes(name)) {
      if (!integerText.test(value)) {
        return { violation: { parameter: name, rule: QueryViolation.ruleTexts.integerText, kind: "invalid" } }
      }
      input[name] = Number(value)
    } else {
      input[name] = value
    }
  }
  return { input }
}
