/**
 * Field schemas shared by the record schemas: tolerant text, identifiers and millisecond times.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/**
 * Reads text: a string as is; `undefined` for anything else. The rule of `Schema.String`.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
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
 * anything else. The rule of `OptionalText`, as a plain function for compiled decoders.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.strictEqual(Field.readOptionalText("memo"), "memo")
 * assert.strictEqual(Field.readOptionalText(null), "")
 * assert.strictEqual(Field.readOptionalText(5), undefined)
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const readOptionalText = (u: unknown): string | undefined =>
  typeof u === "string" ? u : u === null || u === undefined ? "" : undefined

/**
 * Reads numeric text: a string as is, a finite number in base 10, `null`/`undefined` as `""`;
 * `undefined` for anything else. The rule of `NumericText`.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.strictEqual(Field.readNumericText(5), "5")
 * assert.strictEqual(Field.readNumericText(null), "")
 * assert.strictEqual(Field.readNumericText(Infinity), undefined)
 * ```
 *
 * @since 0.1.0
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
 * anything else. The rule of `Id`.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.strictEqual(Field.readId(42), "42")
 * assert.strictEqual(Field.readId(""), undefined)
 * assert.strictEqual(Field.readId(-1), undefined)
 * ```
 *
 * @since 0.1.0
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
 * anything else. The rule of `Millis`.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.strictEqual(Field.readMillis("1644489390087"), 1644489390087)
 * assert.strictEqual(Field.readMillis("1644489390.5"), undefined)
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const readMillis = (u: unknown): number | undefined => {
  const n = typeof u === "number" ? u : typeof u === "string" && integerText.test(u) ? Number(u) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

// The schema of a field rule written as a reader: what `read` accepts, decoded to what it returns;
// anything else fails with `expected`. Encoding gives the value back unchanged.
const fromReader = <I, A extends I>(
  to: Schema.Schema<A>,
  read: (u: unknown) => A | undefined,
  expected: string
): Schema.Schema<A, I> =>
  Schema.transformOrFail(Schema.Unknown as Schema.Schema<I>, to, {
    strict: true,
    decode: (u, _, ast) => {
      const value = read(u)
      return value !== undefined ? ParseResult.succeed(value) : ParseResult.fail(new ParseResult.Type(ast, u, expected))
    },
    encode: (a) => ParseResult.succeed<I>(a)
  })

/**
 * Optional text: a string is kept as is; `null` or a missing field decode to `""`.
 * Encodes back to the string.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const Note = Schema.Struct({ memo: Field.OptionalText })
 * assert.deepStrictEqual(Schema.decodeUnknownSync(Note)({ memo: null }), { memo: "" })
 * assert.deepStrictEqual(Schema.decodeUnknownSync(Note)({}), { memo: "" })
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const OptionalText: Schema.Schema<string, string | null | undefined> = fromReader(
  Schema.String,
  readOptionalText,
  "expected text or null"
)

/**
 * Text that may arrive as a string, a number or `null` (counts, status codes): exposed as text,
 * `null`/missing as `""`. Numbers are rendered in base 10.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.NumericText)(5), "5")
 * assert.strictEqual(Schema.decodeUnknownSync(Field.NumericText)("5"), "5")
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const NumericText: Schema.Schema<string, string | number | null | undefined> = fromReader(
  Schema.String,
  readNumericText,
  "expected text, a number or null"
)

/**
 * A record identifier: non-empty text, also accepted as a non-negative integer number.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.Id)(11945860693), "11945860693")
 * assert.ok(Either.isLeft(Schema.decodeUnknownEither(Field.Id)("")))
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const Id: Schema.Schema<string, string | number> = fromReader(
  Schema.String,
  readId,
  "expected a non-empty identifier"
)

/**
 * A Unix millisecond time: a non-negative safe integer, also accepted as integer text.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.Millis)("1644489390087"), 1644489390087)
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const Millis: Schema.Schema<number, number | string> = fromReader(
  Schema.Number,
  readMillis,
  "expected a Unix millisecond timestamp"
)

const digits = /^\d+$/

/**
 * Orders identifiers: all-digit ids numerically (shorter first, then by digits), others by text.
 * Used for ties at one millisecond so that client and server agree on "ties by id".
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.deepStrictEqual(["10", "9", "b", "a"].sort(Field.compareIds), ["9", "10", "a", "b"])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const compareIds = (a: string, b: string): -1 | 0 | 1 => {
  if (a === b) return 0
  if (digits.test(a) && digits.test(b) && a.length !== b.length) return a.length < b.length ? -1 : 1
  return a < b ? -1 : 1
}

/**
 * The annotation that carries a schema's compiled decoder (see `withCompiledDecoder`).
 *
 * @example
 * ```ts
 * import { Field, TransferRecord } from "@broker-history/domain"
 * import { Option, SchemaAST } from "effect"
 *
 * const compiled = SchemaAST.getAnnotation(TransferRecord.TransferPage.ast, Field.CompiledDecoderId)
 * assert.ok(Option.isSome(compiled))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const CompiledDecoderId: unique symbol = Symbol.for("@broker-history/domain/Field/CompiledDecoder")

/**
 * A compiled decoder: the schema's decoding as one plain function that applies the same field rules
 * (the `read…` functions) directly. It returns the decoded value, or `undefined` when the input
 * breaks any rule (the schema then decodes it again to say which rule, where).
 *
 * @example
 * ```ts
 * import type { Field } from "@broker-history/domain"
 *
 * const strings: Field.CompiledDecoder<ReadonlyArray<string>> = (u) =>
 *   Array.isArray(u) && u.every((x) => typeof x === "string") ? u : undefined
 * assert.deepStrictEqual(strings(["a", "b"]), ["a", "b"])
 * assert.strictEqual(strings(["a", 1]), undefined)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type CompiledDecoder<A> = (input: unknown) => A | undefined

/**
 * The compiled decoder of an array whose elements `element` decodes: one pass, `undefined` as soon
 * as an element is rejected.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * const ids = Field.compiledArray(Field.readId)
 * assert.deepStrictEqual(ids([1, "b"]), ["1", "b"])
 * assert.strictEqual(ids([1, ""]), undefined)
 * ```
 *
 * @since 0.1.0
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

/**
 * Attaches a compiled decoder to a schema. It must accept only what the schema accepts and return
 * exactly what the schema returns (a property test holds each one to this); `decoder` uses it.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Ids = Field.withCompiledDecoder(Schema.Array(Field.Id), Field.compiledArray(Field.readId))
 * const decode = Field.decoder(Ids)
 * assert.deepStrictEqual(decode([7, "x"]), Either.right(["7", "x"]))
 * assert.ok(Either.isLeft(decode([7, ""])))
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const withCompiledDecoder = <A, I>(
  schema: Schema.Schema<A, I>,
  compiled: CompiledDecoder<A>
): Schema.Schema<A, I> => schema.annotations({ [CompiledDecoderId]: compiled })

/**
 * The decoder of a schema, built once: the compiled decoder when the schema carries one, with the
 * schema's own decoding as the fallback that reports what is wrong; otherwise the schema's decoding.
 * Either way every field is validated.
 *
 * @example
 * ```ts
 * import { Field, TransferRecord } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * const decodePage = Field.decoder(TransferRecord.TransferPage)
 * assert.deepStrictEqual(decodePage([]), Either.right([]))
 * assert.ok(Either.isLeft(decodePage([{ tranId: "", asset: "BTC", amount: "1", timestamp: 1 }])))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const decoder = <A, I>(
  schema: Schema.Schema<A, I>
): (input: unknown) => Either.Either<A, ParseResult.ParseError> => {
  const full = Schema.decodeUnknownEither(schema)
  const compiled = AST.getAnnotation<CompiledDecoder<A>>(schema.ast, CompiledDecoderId)
  if (Option.isNone(compiled)) return full
  const fast = compiled.value
  return (input) => {
    const value = fast(input)
    return value === undefined ? full(input) : Either.right(value)
  }
}
