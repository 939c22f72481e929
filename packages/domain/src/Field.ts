/**
 * Field schemas shared by the record schemas: tolerant text, identifiers and millisecond times.
 *
 * @since 0.1.0
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * Optional text: a string is kept as is; `null` or a missing field decode to `""`.
 * Encodes back to the string.
 *
 * @example
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Field.OptionalText)(null) // ""
 */
export const OptionalText: Schema.Schema<string, string | null | undefined> = Schema.transformOrFail(
  Schema.Unknown as Schema.Schema<string | null | undefined>,
  Schema.String,
  {
    strict: true,
    decode: (u, _, ast) =>
      typeof u === "string"
        ? ParseResult.succeed(u)
        : u === null || u === undefined
        ? ParseResult.succeed("")
        : ParseResult.fail(new ParseResult.Type(ast, u, "expected text or null")),
    encode: ParseResult.succeed
  }
)

/**
 * Text that may arrive as a string, a number or `null` (counts, status codes): exposed as text,
 * `null`/missing as `""`. Numbers are rendered in base 10.
 *
 * @example
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Field.NumericText)(5) // "5"
 */
export const NumericText: Schema.Schema<string, string | number | null | undefined> = Schema.transformOrFail(
  Schema.Unknown as Schema.Schema<string | number | null | undefined>,
  Schema.String,
  {
    strict: true,
    decode: (u, _, ast) =>
      typeof u === "string"
        ? ParseResult.succeed(u)
        : typeof u === "number" && Number.isFinite(u)
        ? ParseResult.succeed(String(u))
        : u === null || u === undefined
        ? ParseResult.succeed("")
        : ParseResult.fail(new ParseResult.Type(ast, u, "expected text, a number or null")),
    encode: ParseResult.succeed
  }
)

/**
 * A record identifier: non-empty text, also accepted as a non-negative integer number.
 *
 * @example
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Field.Id)(11945860693) // "11945860693"
 */
export const Id: Schema.Schema<string, string | number> = Schema.transformOrFail(
  Schema.Unknown as Schema.Schema<string | number>,
  Schema.String,
  {
    strict: true,
    decode: (u, _, ast) =>
      typeof u === "string" && u.length > 0
        ? ParseResult.succeed(u)
        : typeof u === "number" && Number.isSafeInteger(u) && u >= 0
        ? ParseResult.succeed(String(u))
        : ParseResult.fail(new ParseResult.Type(ast, u, "expected a non-empty identifier")),
    encode: ParseResult.succeed
  }
)

const integerText = /^\d{1,16}$/

/**
 * A Unix millisecond time: a non-negative safe integer, also accepted as integer text.
 *
 * @example
 * import { Field } from "@broker-history/domain"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Field.Millis)("1644489390087") // 1644489390087
 */
export const Millis: Schema.Schema<number, number | string> = Schema.transformOrFail(
  Schema.Unknown as Schema.Schema<number | string>,
  Schema.Number,
  {
    strict: true,
    decode: (u, _, ast) => {
      const n = typeof u === "number" ? u : typeof u === "string" && integerText.test(u) ? Number(u) : NaN
      return Number.isSafeInteger(n) && n >= 0
        ? ParseResult.succeed(n)
        : ParseResult.fail(new ParseResult.Type(ast, u, "expected a Unix millisecond timestamp"))
    },
    encode: ParseResult.succeed
  }
)

const digits = /^\d+$/

/**
 * Orders identifiers: all-digit ids numerically (shorter first, then by digits), others by text.
 * Used for ties at one millisecond so that client and server agree on "ties by id".
 *
 * @example
 * import { Field } from "@broker-history/domain"
 * Field.compareIds("9", "10") // -1
 */
export const compareIds = (a: string, b: string): -1 | 0 | 1 => {
  if (a === b) return 0
  if (digits.test(a) && digits.test(b) && a.length !== b.length) return a.length < b.length ? -1 : 1
  return a < b ? -1 : 1
}
