/**
 * The service's failure body `{"code": <int>, "msg": "<text>"}` and the error table of docs/wire-contract.md.
 *
 * @since 0.2.0
 */
import type * as Core from "@broker-history/core/protocol/ErrorBody"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * The error table and its reader, from `@broker-history/core/protocol/ErrorBody`: the codes
 * (`Code`), the status and message of each situation (`ErrorRow`, `Errors`) and the refusal an
 * enveloped answer carries (`fromEnvelope`).
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(ErrorBody.Errors.badSignature.code, ErrorBody.Code.BadSignature)
 * assert.deepStrictEqual(ErrorBody.fromEnvelope({ code: "700001", message: "API-key format invalid." }), {
 *   code: 700001,
 *   msg: "API-key format invalid."
 * })
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/protocol/ErrorBody"

/**
 * Schema of a failure body. `code` may arrive as a number or as integer text.
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(ErrorBody.ErrorBody)
 * assert.deepStrictEqual(decode({ code: "700002", msg: "Signature for this request is not valid." }), {
 *   code: 700002,
 *   msg: "Signature for this request is not valid."
 * })
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const ErrorBody: Schema.Codec<Core.ErrorBody, { readonly code: number | string; readonly msg: string }> = Schema
  .Struct({
    code: Schema.Union([
      Schema.Int,
      // Text that reads as an integer number; blank text is no number.
      Schema.String.check(Schema.makeFilter((text: string) => text.trim() !== "", { expected: "integer text" })).pipe(
        Schema.decodeTo(Schema.Int, SchemaTransformation.numberFromString)
      )
    ]),
    msg: Schema.String
  })

/**
 * A decoded failure body.
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain-effect4"
 *
 * const isRateLimit = (body: ErrorBody.ErrorBody) => body.code === ErrorBody.Code.TooManyRequests
 * assert.strictEqual(isRateLimit({ code: 429, msg: "Too many requests." }), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type ErrorBody = Core.ErrorBody
