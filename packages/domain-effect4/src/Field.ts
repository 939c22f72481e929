/**
 * Field schemas shared by the record schemas: tolerant text, identifiers and millisecond times, and
 * the compiled decoders that read a record in one pass.
 *
 * @since 0.2.0
 */
import type { CompiledDecoder } from "@broker-history/core/record/Field"
import { readId, readMillis, readNumericText, readOptionalText } from "@broker-history/core/record/Field"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * The field rules as plain functions (`readText`, `readOptionalText`, `readNumericText`, `readId`,
 * `readMillis`), the order of ids (`compareIds`) and compiled decoders (`CompiledDecoder`,
 * `compiledArray`), from `@broker-history/core/record/Field`: the schemas below are built on them.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(Field.readMillis("1644489390087"), 1644489390087)
 * assert.deepStrictEqual(["10", "9"].sort(Field.compareIds), ["9", "10"])
 * assert.deepStrictEqual(Field.compiledArray(Field.readId)([1, "b"]), ["1", "b"])
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export * from "@broker-history/core/record/Field"

// The encoded side of a field rule written as a reader: what `read` accepts, typed `I`.
const accepted = <I>(read: (u: unknown) => unknown, expected: string) =>
  Schema.declare((u: unknown): u is I => read(u) !== undefined, { expected })

// A field rule written as a reader: what `read` accepts, decoded to what it returns; anything else
// fails with `expected`. Encoding gives the value back unchanged.
const fromReader = <A extends I, I>(to: Schema.Codec<A>, read: (u: unknown) => A | undefined, expected: string) =>
  accepted<I>(read, expected).pipe(
    Schema.decodeTo(to, SchemaTransformation.transform({ decode: (i: I) => read(i) as A, encode: (a: A): I => a }))
  )

// The same for a field that may be missing: `read(undefined)` stands for the missing value.
const fromOptionalReader = <A extends I, I>(
  to: Schema.Codec<A>,
  read: (u: unknown) => A | undefined,
  expected: string
) =>
  Schema.optionalKey(accepted<I>(read, expected)).pipe(
    Schema.decodeTo(to, {
      decode: SchemaGetter.transformOptional((i: Option.Option<I>) => Option.some(read(Option.getOrUndefined(i))!)),
      encode: SchemaGetter.passthroughSubtype<I, A>()
    })
  )

/**
 * Optional text: a string is kept as is; `null` or a missing field decode to `""`.
 * Encodes back to the string.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const Note = Schema.Struct({ memo: Field.OptionalText })
 * assert.deepStrictEqual(Schema.decodeUnknownSync(Note)({ memo: null }), { memo: "" })
 * assert.deepStrictEqual(Schema.decodeUnknownSync(Note)({}), { memo: "" })
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const OptionalText = fromOptionalReader<string, string | null | undefined>(
  Schema.String,
  readOptionalText,
  "text or null"
)

/**
 * Text that may arrive as a string, a number or `null` (counts, status codes): exposed as text,
 * `null`/missing as `""`. Numbers are rendered in base 10.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.NumericText)(5), "5")
 * assert.strictEqual(Schema.decodeUnknownSync(Field.NumericText)("5"), "5")
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const NumericText = fromOptionalReader<string, string | number | null | undefined>(
  Schema.String,
  readNumericText,
  "text, a number or null"
)

/**
 * A record identifier: non-empty text, also accepted as a non-negative integer number.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.Id)(11945860693), "11945860693")
 * assert.ok(Result.isFailure(Schema.decodeUnknownResult(Field.Id)("")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const Id = fromReader<string, string | number>(Schema.String, readId, "a non-empty identifier")

/**
 * A Unix millisecond time: a non-negative safe integer, also accepted as integer text.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * assert.strictEqual(Schema.decodeUnknownSync(Field.Millis)("1644489390087"), 1644489390087)
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const Millis = fromReader<number, number | string>(Schema.Number, readMillis, "a Unix millisecond timestamp")

/**
 * The annotation that carries a schema's compiled decoder (see `withCompiledDecoder`).
 *
 * @example
 * ```ts
 * import { Field, TransferRecord } from "@broker-history/domain-effect4"
 * import { SchemaAST } from "effect"
 *
 * const compiled = SchemaAST.resolveAt(Field.CompiledDecoderId)(TransferRecord.TransferPage.ast)
 * assert.strictEqual(typeof compiled, "function")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const CompiledDecoderId = "@broker-history/domain-effect4/Field/CompiledDecoder" as const

/**
 * Attaches a compiled decoder to a schema. It must accept only what the schema accepts and return
 * exactly what the schema returns (a property test holds each one to this); `decoder` uses it.
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Ids = Field.withCompiledDecoder(Schema.Array(Field.Id), Field.compiledArray(Field.readId))
 * const decode = Field.decoder(Ids)
 * assert.deepStrictEqual(decode([7, "x"]), Result.succeed(["7", "x"]))
 * assert.ok(Result.isFailure(decode([7, ""])))
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const withCompiledDecoder = <S extends Schema.Top>(
  schema: S,
  compiled: CompiledDecoder<S["Type"]>
): S["Rebuild"] => schema.annotate({ [CompiledDecoderId]: compiled })

/**
 * The decoder of a schema, built once: the compiled decoder when the schema carries one, with the
 * schema's own decoding as the fallback that reports what is wrong; otherwise the schema's decoding.
 * Either way every field is validated.
 *
 * @example
 * ```ts
 * import { Field, TransferRecord } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const decodePage = Field.decoder(TransferRecord.TransferPage)
 * assert.deepStrictEqual(decodePage([]), Result.succeed([]))
 * assert.ok(Result.isFailure(decodePage([{ tranId: "", asset: "BTC", amount: "1", timestamp: 1 }])))
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const decoder = <A>(schema: Schema.Decoder<A>): (input: unknown) => Result.Result<A, Schema.SchemaError> => {
  const full = Schema.decodeUnknownResult(schema)
  const fast = SchemaAST.resolveAt<CompiledDecoder<A>>(CompiledDecoderId)(schema.ast)
  if (fast === undefined) return full
  return (input) => {
    const value = fast(input)
    return value === undefined ? full(input) : Result.succeed(value)
  }
}
