/**
 * The field rules of the service's records as plain functions: tolerant text, identifiers and
 * millisecond times, read from untrusted JSON values (`undefined`: the value breaks the rule); the
 * order of ids; and compiled decoders (a record's decoding as one plain function). Each line's
 * schemas are built on these rules.
 *
 * @since 0.2.0
 */

/**
 * Reads text: a string as is; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.strictEqual(Field.readText("BTC"), "BTC")
 * assert.strictEqual(Field.readText(null), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readText = (u: unknown): string | undefined => typeof u === "string" ? u : undefined

/**
 * Reads optional text: a string as is, `null`/`undefined` as `""`; `undefined` (no value) for
 * anything else.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.strictEqual(Field.readOptionalText("memo"), "memo")
 * assert.strictEqual(Field.readOptionalText(null), "")
 * assert.strictEqual(Field.readOptionalText(5), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readOptionalText = (u: unknown): string | undefined =>
  typeof u === "string" ? u : u === null || u === undefined ? "" : undefined

/**
 * Reads numeric text: a string as is, a finite number in base 10, `null`/`undefined` as `""`;
 * `undefined` for anything else.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.strictEqual(Field.readNumericText(5), "5")
 * assert.strictEqual(Field.readNumericText(null), "")
 * assert.strictEqual(Field.readNumericText(Infinity), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readNumericText = (u: unknown): string | undefined =>
  typeof u === "string"
    ? u
    : typeof u === "number" && Number.isFinite(u)
    ? String(u)
    : u === null || u === undefined
    ? ""
    : undefined

/**
 * Reads an identifier: non-empty text, or a non-negative safe integer as text; `undefined` for
 * anything else.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.strictEqual(Field.readId(42), "42")
 * assert.strictEqual(Field.readId(""), undefined)
 * assert.strictEqual(Field.readId(-1), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readId = (u: unknown): string | undefined =>
  typeof u === "string"
    ? (u.length > 0 ? u : undefined)
    : typeof u === "number" && Number.isSafeInteger(u) && u >= 0
    ? String(u)
    : undefined

const integerText = /^\d{1,16}$/

/**
 * Reads a Unix millisecond time: a non-negative safe integer, or integer text; `undefined` for
 * anything else.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.strictEqual(Field.readMillis("1644489390087"), 1644489390087)
 * assert.strictEqual(Field.readMillis("1644489390.5"), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readMillis = (u: unknown): number | undefined => {
  const n = typeof u === "number" ? u : typeof u === "string" && integerText.test(u) ? Number(u) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

const digits = /^\d+$/

/**
 * Orders identifiers: all-digit ids numerically (shorter first, then by digits), others by text.
 * Used for ties at one millisecond so that client and server agree on "ties by id".
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * assert.deepStrictEqual(["10", "9", "b", "a"].sort(Field.compareIds), ["9", "10", "a", "b"])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const compareIds = (a: string, b: string): -1 | 0 | 1 => {
  if (a === b) return 0
  if (digits.test(a) && digits.test(b) && a.length !== b.length) return a.length < b.length ? -1 : 1
  return a < b ? -1 : 1
}

/**
 * A compiled decoder: the schema's decoding as one plain function that applies the same field rules
 * (the `read…` functions) directly. It returns the decoded value, or `undefined` when the input
 * breaks any rule (a schema then decodes it again to say which rule, where).
 *
 * @example
 * ```ts
 * import type * as Field from "@broker-history/core/record/Field"
 *
 * const strings: Field.CompiledDecoder<ReadonlyArray<string>> = (u) =>
 *   Array.isArray(u) && u.every((x) => typeof x === "string") ? u : undefined
 * assert.deepStrictEqual(strings(["a", "b"]), ["a", "b"])
 * assert.strictEqual(strings(["a", 1]), undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type CompiledDecoder<A> = (input: unknown) => A | undefined

/**
 * The compiled decoder of an array whose elements `element` decodes: one pass, `undefined` as soon
 * as an element is rejected.
 *
 * @example
 * ```ts
 * import * as Field from "@broker-history/core/record/Field"
 *
 * const ids = Field.compiledArray(Field.readId)
 * assert.deepStrictEqual(ids([1, "b"]), ["1", "b"])
 * assert.strictEqual(ids([1, ""]), undefined)
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const compiledArray = <A>(element: CompiledDecoder<A>): CompiledDecoder<ReadonlyArray<A>> => (u) => {
  if (!Array.isArray(u)) return undefined
  const out = new Array<A>(u.length)
  for (let i = 0; i < u.length; i++) {
    const decoded = element(u[i])
    if (decoded === undefined) return undefined
    out[i] = decoded
  }
  return out
}
