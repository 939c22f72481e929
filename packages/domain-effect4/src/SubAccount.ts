/**
 * One sub-account of the broker's sub-account list, and a page of the list, decoded tolerantly as
 * docs/wire-contract.md ("The sub-account list") says: the documented `{code, message, data}`
 * envelope or a bare array; the creation time as integer text or a number.
 *
 * @since 0.2.0
 */
import { readMillis } from "@broker-history/core/record/Field"
import * as Core from "@broker-history/core/record/SubAccount"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { OptionalText } from "./Field.js"

/**
 * The list's plain parts, from `@broker-history/core/record/SubAccount`: the wire types
 * (`SubAccountEncoded`, `SubAccountEnvelope`), the name rule (`maxNameLength`, `isName`) and the
 * identity (`key`). The schemas below are built on them.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(SubAccount.isName("sub001@broker.test"), true)
 * assert.strictEqual(SubAccount.isName(" sub001"), false)
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
 * import type { SubAccount } from "@broker-history/domain-effect4"
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
 * import { SubAccount } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(SubAccount.Name)
 * assert.deepStrictEqual(decode("sub001@broker.test"), Result.succeed("sub001@broker.test"))
 * assert.ok(Result.isFailure(decode("")))
 * assert.ok(Result.isFailure(decode(" sub001")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const Name: Schema.Codec<string> = Schema.String.check(
  Schema.makeFilter(Core.isName, {
    message: `expected a sub-account name (1 to ${Core.maxNameLength} characters, no surrounding spaces)`
  })
).annotate({ identifier: "a sub-account name" })

// No creation time: `null`, `""` or a missing field.
const isNone = (u: unknown): u is null | undefined | "" => u === null || u === undefined || u === ""

/**
 * A creation time: a Unix millisecond time (a non-negative safe integer, or integer text), or
 * `null`, `""` or a missing field for none (`undefined`). Encodes back to the number.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(SubAccount.CreationTime)
 * assert.deepStrictEqual(decode("1597026383085"), Result.succeed(1597026383085))
 * assert.deepStrictEqual(decode(null), Result.succeed(undefined))
 * assert.ok(Result.isFailure(decode("yesterday")))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const CreationTime = Schema.optionalKey(
  Schema.declare((u: unknown): u is number | string | null | undefined => isNone(u) || readMillis(u) !== undefined, {
    expected: "a Unix millisecond timestamp or null"
  })
).pipe(
  Schema.decodeTo(Schema.UndefinedOr(Schema.Number), {
    decode: SchemaGetter.transformOptional((time) =>
      Option.some(Option.isNone(time) || isNone(time.value) ? undefined : readMillis(time.value))
    ),
    encode: SchemaGetter.passthroughSubtype()
  })
)

/**
 * Schema of a listed sub-account: the name (`Name`), the note (`null` or missing as `""`) and the
 * creation time (`CreationTime`). Unknown extra fields are ignored.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain-effect4"
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
export const SubAccount: Schema.Codec<SubAccount, Core.SubAccountEncoded> = Schema.Struct({
  subAccount: Name,
  note: OptionalText,
  timestamp: CreationTime
}).annotate({ identifier: "SubAccount" })

const Records = Schema.Array(SubAccount)

const Envelope = Schema.Struct({
  code: Schema.optional(
    Schema.Union([Schema.Literal(0), Schema.String.check(Schema.isPattern(/^0+$/))]).annotate({
      identifier: "code \"0\" (a success)"
    })
  ),
  // Any message is accepted (only `code` says whether the page is a success), typed as documented.
  message: Schema.optional(Schema.Unknown as Schema.Codec<unknown, string | null>),
  data: Records
})

/**
 * A page of the sub-account list: the documented envelope `{"code": "0", "message": "", "data":
 * [...]}` (`code` `0`, `"0"` or none: another code is a refusal, see `ErrorBody.fromEnvelope`), or a
 * bare array of the records. Encodes to the envelope. The page's length is not bounded here: the
 * body limit does that, and the client refuses a page longer than the `limit` it asked for.
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(SubAccount.SubAccountPage)
 * const record = { subAccount: "mexc1", note: "1", timestamp: "1597026383085" }
 * const expected = [{ subAccount: "mexc1", note: "1", timestamp: 1597026383085 }]
 * assert.deepStrictEqual(decode({ code: "0", message: "", data: [record] }), Result.succeed(expected))
 * assert.deepStrictEqual(decode([record]), Result.succeed(expected))
 * assert.ok(Result.isFailure(decode({ code: "700001", message: "API-key format invalid." })))
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
export const SubAccountPage: Schema.Codec<
  ReadonlyArray<SubAccount>,
  ReadonlyArray<Core.SubAccountEncoded> | Core.SubAccountEnvelope
> = Schema.Union([
  // The envelope first: encoding takes the first member that fits, and the list encodes to it.
  Envelope.pipe(
    Schema.decodeTo(
      Schema.toType(Records),
      SchemaTransformation.transform({
        decode: (envelope) => envelope.data,
        encode: (data) => ({ code: "0", message: "", data })
      })
    )
  ),
  Records
]).annotate({ identifier: "a sub-account list page" })
