/**
 * One sub-account of the broker's sub-account list, and a page of the list, decoded tolerantly as
 * docs/wire-contract.md ("The sub-account list") says: the documented `{code, message, data}`
 * envelope or a bare array; the creation time as integer text or a number.
 *
 * @since 0.2.0
 */
import * as Core from "@broker-history/core/record/SubAccount"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { OptionalText, readMillis } from "./Field.js"

/**
 * The plain parts, from `@broker-history/core/record/SubAccount`: the wire shapes
 * (`SubAccountEncoded`, `SubAccountEnvelope`), the name rule (`maxNameLength`, `isName`), the
 * creation-time rule (`noCreationTime`) and the identity (`key`). The schemas below are built on them.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain"
 *
 * assert.strictEqual(SubAccount.isName("a".repeat(SubAccount.maxNameLength)), true)
 * assert.strictEqual(SubAccount.key({ subAccount: "mexc1", note: "", timestamp: undefined }), "mexc1")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export * from "@broker-history/core/record/SubAccount"

/**
 * A listed sub-account: its name, its note (`""` when the service sends `null` or omits it) and its
 * creation time in Unix ms (`undefined` when the service sends none).
 *
 * @example
 * ```ts
 * import type { SubAccount } from "@broker-history/domain"
 *
 * const existedAt = (s: SubAccount.SubAccount, time: number): boolean => s.timestamp === undefined || s.timestamp <= time
 * assert.strictEqual(existedAt({ subAccount: "mexc1", note: "", timestamp: 1597026383085 }, 1600000000000), true)
 * assert.strictEqual(existedAt({ subAccount: "mexc1", note: "", timestamp: 1597026383085 }, 1500000000000), false)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type SubAccount = Core.SubAccount

/**
 * A sub-account name: non-empty text of at most `maxNameLength` characters, without surrounding
 * spaces (the rule of a transfer query's `fromAccount` / `toAccount`, where the name is sent).
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownEither(SubAccount.Name)
 * assert.deepStrictEqual(decode("sub001@broker.test"), Either.right("sub001@broker.test"))
 * assert.ok(Either.isLeft(decode("")))
 * assert.ok(Either.isLeft(decode(" sub001")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const Name: Schema.Schema<string> = Schema.String.pipe(
  Schema.filter(
    Core.isName,
    { message: () => `expected a sub-account name (1 to ${Core.maxNameLength} characters, no surrounding spaces)` }
  )
).annotations({ identifier: "a sub-account name" })

/**
 * A creation time: a Unix millisecond time (a non-negative safe integer, or integer text), or
 * `null`, `""` or a missing field for none (`undefined`). Encodes back to the number.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownEither(SubAccount.CreationTime)
 * assert.deepStrictEqual(decode("1597026383085"), Either.right(1597026383085))
 * assert.deepStrictEqual(decode(null), Either.right(undefined))
 * assert.ok(Either.isLeft(decode("yesterday")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const CreationTime: Schema.Schema<number | undefined, number | string | null | undefined> = Schema
  .transformOrFail(
    Schema.Unknown as Schema.Schema<number | string | null | undefined>,
    Schema.UndefinedOr(Schema.Number),
    {
      strict: true,
      decode: (u, _, ast) => {
        if (Core.noCreationTime(u)) return ParseResult.succeed(undefined)
        const millis = readMillis(u)
        return millis !== undefined
          ? ParseResult.succeed(millis)
          : ParseResult.fail(new ParseResult.Type(ast, u, "expected a Unix millisecond timestamp or null"))
      },
      encode: (a) => ParseResult.succeed(a)
    }
  )

/**
 * Schema of a listed sub-account: the name (`Name`), the note (`null` or missing as `""`) and the
 * creation time (`CreationTime`). Unknown extra fields are ignored.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(SubAccount.SubAccount)
 * assert.deepStrictEqual(decode({ subAccount: "mexc1", note: "1", timestamp: "1597026383085" }), {
 *   subAccount: "mexc1",
 *   note: "1",
 *   timestamp: 1597026383085
 * })
 * assert.deepStrictEqual(decode({ subAccount: "mexc2", note: null, timestamp: 1597026383086 }), {
 *   subAccount: "mexc2",
 *   note: "",
 *   timestamp: 1597026383086
 * })
 * assert.strictEqual(decode({ subAccount: "mexc3" }).timestamp, undefined)
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const SubAccount: Schema.Schema<SubAccount, Core.SubAccountEncoded> = Schema.Struct({
  subAccount: Name,
  note: OptionalText,
  timestamp: CreationTime
}).annotations({ identifier: "SubAccount" }) as unknown as Schema.Schema<SubAccount, Core.SubAccountEncoded>

const Records = Schema.Array(SubAccount)

const successCode = /^0+$/

const Envelope = Schema.Struct({
  code: Schema.optional(
    Schema.Union(Schema.Literal(0), Schema.String.pipe(Schema.pattern(successCode))).annotations({
      identifier: "code \"0\" (a success)"
    })
  ),
  data: Records
})

const decodeRecords = ParseResult.decodeUnknown(Records)
const decodeEnvelope = ParseResult.decodeUnknown(Envelope)
const encodeRecords = ParseResult.encodeUnknown(Records)

/**
 * A page of the sub-account list: the documented envelope `{"code": "0", "message": "", "data":
 * [...]}` (`code` `0`, `"0"` or none: another code is a refusal, see `ErrorBody.fromEnvelope`), or a
 * bare array of the records. Encodes to the envelope. The page's length is not bounded here: the
 * body limit does that, and the client refuses a page longer than the `limit` it asked for.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownEither(SubAccount.SubAccountPage)
 * const record = { subAccount: "mexc1", note: "1", timestamp: "1597026383085" }
 * const expected = [{ subAccount: "mexc1", note: "1", timestamp: 1597026383085 }]
 * assert.deepStrictEqual(decode({ code: "0", message: "", data: [record] }), Either.right(expected))
 * assert.deepStrictEqual(decode([record]), Either.right(expected))
 * assert.ok(Either.isLeft(decode({ code: "700001", message: "API-key format invalid." })))
 * assert.deepStrictEqual(Schema.encodeSync(SubAccount.SubAccountPage)(expected), {
 *   code: "0",
 *   message: "",
 *   data: [{ subAccount: "mexc1", note: "1", timestamp: 1597026383085 }]
 * })
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const SubAccountPage: Schema.Schema<
  ReadonlyArray<SubAccount>,
  ReadonlyArray<Core.SubAccountEncoded> | Core.SubAccountEnvelope
> = Schema.transformOrFail(
  Schema.Unknown as Schema.Schema<ReadonlyArray<Core.SubAccountEncoded> | Core.SubAccountEnvelope>,
  Schema.typeSchema(Records),
  {
    strict: true,
    decode: (u) =>
      Array.isArray(u) ? decodeRecords(u) : ParseResult.map(decodeEnvelope(u), (envelope) => envelope.data),
    encode: (records) =>
      ParseResult.map(encodeRecords(records), (data): Core.SubAccountEnvelope => ({ code: "0", message: "", data }))
  }
).annotations({ identifier: "a sub-account list page" })
