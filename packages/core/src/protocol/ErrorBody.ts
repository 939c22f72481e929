/**
 * The service's failure body `{"code": <int>, "msg": "<text>"}` and the error table of
 * docs/wire-contract.md: the codes, the status and message of each situation, and the refusal an
 * enveloped answer carries.
 *
 * @since 0.2.0
 */

/**
 * A failure body, read.
 *
 * @example
 * ```ts
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * const isRateLimit = (body: ErrorBody.ErrorBody) => body.code === ErrorBody.Code.TooManyRequests
 * assert.strictEqual(isRateLimit({ code: 429, msg: "Too many requests." }), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ErrorBody {
  readonly code: number
  readonly msg: string
}

/**
 * The service's error codes.
 *
 * @example
 * ```ts
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * assert.strictEqual(ErrorBody.Code.BadSignature, 700002)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const Code = {
  InvalidApiKey: 700001,
  BadSignature: 700002,
  TimestampOutsideRecvWindow: 700003,
  MandatoryParameter: 700004,
  RecvWindowOutOfRange: 700005,
  NoPermission: 700007,
  InvalidParameter: 33333,
  TooManyRequests: 429,
  Internal: 500
} as const

/**
 * One row of the error table: the HTTP status and body the service answers in a situation.
 *
 * @example
 * ```ts
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * const row: ErrorBody.ErrorRow = ErrorBody.Errors.invalidParameter("limit must be an integer from 1 to 500")
 * assert.deepStrictEqual(row, {
 *   status: 400,
 *   code: 33333,
 *   msg: "Param is error: limit must be an integer from 1 to 500"
 * })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ErrorRow {
  readonly status: number
  readonly code: number
  readonly msg: string
}

/**
 * The error table: status, code and message the reference service answers in each situation.
 * Rows whose message carries a detail are functions of that detail.
 *
 * @example
 * ```ts
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * assert.strictEqual(ErrorBody.Errors.badSignature.status, 401)
 * assert.strictEqual(
 *   ErrorBody.Errors.mandatoryParameter("timestamp").msg,
 *   "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed."
 * )
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const Errors = {
  invalidApiKey: { status: 401, code: Code.InvalidApiKey, msg: "API-key format invalid." },
  badSignature: { status: 401, code: Code.BadSignature, msg: "Signature for this request is not valid." },
  timestampOutsideRecvWindow: {
    status: 400,
    code: Code.TimestampOutsideRecvWindow,
    msg: "Timestamp for this request is outside of the recvWindow."
  },
  mandatoryParameter: (name: string): ErrorRow => ({
    status: 400,
    code: Code.MandatoryParameter,
    msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`
  }),
  recvWindowOutOfRange: { status: 400, code: Code.RecvWindowOutOfRange, msg: "recvWindow must less than 60000" },
  noPermission: { status: 403, code: Code.NoPermission, msg: "No permission to access the endpoint." },
  invalidParameter: (detail: string): ErrorRow => ({
    status: 400,
    code: Code.InvalidParameter,
    msg: `Param is error: ${detail}`
  }),
  tooManyRequests: { status: 429, code: Code.TooManyRequests, msg: "Too many requests." },
  internal: { status: 500, code: Code.Internal, msg: "Internal error" }
} as const satisfies Record<string, ErrorRow | ((detail: string) => ErrorRow)>

const integerText = /^-?\d{1,15}$/

// A code as the service may send it: an integer number, or integer text.
const readCode = (u: unknown): number | undefined =>
  typeof u === "number"
    ? (Number.isSafeInteger(u) ? u : undefined)
    : typeof u === "string" && integerText.test(u)
    ? Number(u)
    : undefined

/**
 * The refusal an enveloped answer carries. The endpoints that wrap their answer as
 * `{"code": "0", "message": "", "data": …}` (the broker's sub-account list) say no with the same
 * envelope and another code: an integer or integer text other than 0, its text in `message` (or
 * `msg`; `""` when `message` is `null` or `data` stands alone). `undefined` for anything else: a
 * success (code 0), or a body that is no envelope (neither `message`, `msg` nor `data` beside `code`).
 *
 * @example
 * ```ts
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * assert.deepStrictEqual(ErrorBody.fromEnvelope({ code: "700001", message: "API-key format invalid.", data: null }), {
 *   code: 700001,
 *   msg: "API-key format invalid."
 * })
 * assert.deepStrictEqual(ErrorBody.fromEnvelope({ code: 429, msg: "Too many requests." }), {
 *   code: 429,
 *   msg: "Too many requests."
 * })
 * assert.strictEqual(ErrorBody.fromEnvelope({ code: "0", message: "", data: [] }), undefined)
 * assert.strictEqual(ErrorBody.fromEnvelope([]), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromEnvelope = (u: unknown): ErrorBody | undefined => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const body = u as { readonly code?: unknown; readonly message?: unknown; readonly msg?: unknown }
  const code = readCode(body.code)
  if (code === undefined || code === 0) return undefined
  if (typeof body.message === "string") return { code, msg: body.message }
  if (typeof body.msg === "string") return { code, msg: body.msg }
  return body.message === null || (body.message === undefined && "data" in body) ? { code, msg: "" } : undefined
}
