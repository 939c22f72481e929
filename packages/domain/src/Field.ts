/**
 * Field schemas shared by the record schemas: tolerant text, identifiers and millisecond times.
 *
 * @since 0.1.0
 */
import type { CompiledDecoder } from "@broker-history/core/record/Field"
import { readId, readMillis, readNumericText, readOptionalText } from "@broker-history/core/record/Field"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/**
 * The field rules as plain functions (`readText`, `readOptionalText`, `readNumericText`, `readId`,
 * `readMillis`), the order of ids (`compareIds`) and compiled decoders (`CompiledDecoder`,
 * `compiledArray`), from `@broker-history/core/record/Field`: the schemas below are built on them.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain"
 *
 * assert.strictEqual(Field.readMillis("1644489390087"), 1644489390087)
 * assert.deepStrictEqual(["10", "9"].sort(Field.compareIds), ["9", "10"])
 * assert.deepStrictEqual(Field.compiledArray(Field.readId)([1, "b"]), ["1", "b"])
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export * from "@broker-history/core/record/Field"

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
