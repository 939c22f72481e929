/**
 * The service's failure body `{"code": <int>, "msg": "<text>"}` and the error table of docs/wire-contract.md.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The error table, from `@broker-history/core/protocol/ErrorBody`: the codes (`Code`), one row per
 * situation (`Errors`, `ErrorRow`) and the refusal an enveloped answer carries (`fromEnvelope`).
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain"
 *
 * assert.strictEqual(ErrorBody.Code.BadSignature, 700002)
 * assert.strictEqual(ErrorBody.Errors.badSignature.status, 401)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export * from "@broker-history/core/protocol/ErrorBody"

/**
 * Schema of a failure body. `code` may arrive as a number or as integer text.
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(ErrorBody.ErrorBody)
 * assert.deepStrictEqual(decode({ code: "700002", msg: "Signature for this request is not valid." }), {
 *   code: 700002,
 *   msg: "Signature for this request is not valid."
 * })
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorBody = Schema.Struct({
  code: Schema.Union(Schema.Int, Schema.NumberFromString.pipe(Schema.int())),
  msg: Schema.String
})

/**
 * A decoded failure body.
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/domain"
 *
 * const isRateLimit = (body: ErrorBody.ErrorBody) => body.code === ErrorBody.Code.TooManyRequests
 * assert.strictEqual(isRateLimit({ code: 429, msg: "Too many requests." }), true)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorBody = typeof ErrorBody.Type
