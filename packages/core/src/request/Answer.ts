/**
 * How an HTTP answer becomes a value or a failure (docs/wire-contract.md, "Errors"), as plain data:
 * the request a failure names, the body read or refused, a refusal classified by the error table, a
 * `Retry-After` and a redirect's `Location` read, a transport failure described without the signed
 * URL. Each line's client runs the exchange and turns the failures into its tagged error classes.
 *
 * @since 0.2.0
 */
import type * as BrokerError from "../error/BrokerError.js"
import * as ErrorBody from "../protocol/ErrorBody.js"
import * as JsonBody from "./JsonBody.js"
import * as ServerText from "./ServerText.js"

/**
 * A complete answer: status, the `Retry-After` header when present, the `Location` header (read for a
 * 3xx only), and the body: its bytes (this answer's own copy: `JsonBody.parse` may briefly change a
 * byte in it) or its text.
 *
 * @example
 * ```ts
 * import type * as Answer from "@broker-history/core/request/Answer"
 *
 * const reply: Answer.Reply = { status: 429, retryAfter: "1", body: `{"code":429,"msg":"Too many requests."}` }
 * assert.strictEqual(reply.location, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly location?: string | undefined
  readonly body: JsonBody.Body
}

/**
 * The request context of a query: its endpoint, plus its window and page when its parameters have
 * them.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.deepStrictEqual(Answer.requestContext("depositHistory", [["coin", "USDT"], ["page", "2"]]), {
 *   endpoint: "depositHistory",
 *   page: 2
 * })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const requestContext = (
  endpoint: string,
  params: ReadonlyArray<readonly [string, string]>
): BrokerError.RequestContext => {
  const ctx: { endpoint: string; startTime?: number; endTime?: number; page?: number } = { endpoint }
  for (const [name, value] of params) {
    if (name === "startTime") ctx.startTime = Number(value)
    else if (name === "endTime") ctx.endTime = Number(value)
    else if (name === "page") ctx.page = Number(value)
  }
  return ctx
}

/**
 * The start of a body for an error: at most 200 characters of its text, made safe (at most 1 KiB
 * decoded).
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.strictEqual(Answer.excerpt("<html>\n"), "<html>\uFFFD")
 * assert.strictEqual(Answer.excerpt("x".repeat(500)).length, 201)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const excerpt = (body: JsonBody.Body): string =>
  ServerText.sanitize(
    typeof body === "string" ? body : JsonBody.text(body.length <= 1024 ? body : body.subarray(0, 1024)),
    200
  )

const deltaSeconds = /^\d+$/
// The three date formats of RFC 9110 (IMF-fixdate, RFC 850, asctime), all GMT: `Date.parse` alone
// would also read "-5" or "1.5" as dates.
const httpDate =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/

/**
 * Retry-After in ms: whole delta-seconds, or an HTTP date (one in the past is 0: no wait), read at
 * `now` (Unix ms). `undefined` when absent or unreadable (negative, fractional, any other text): the
 * retry then backs off as after any failure. Seconds beyond 2^53 ms are read as 2^53 ms (longer than
 * any `retry.maxRetryAfter`).
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * const now = Date.parse("2026-01-01T00:00:00Z")
 * assert.strictEqual(Answer.retryAfterMillis("7", now), 7000)
 * assert.strictEqual(Answer.retryAfterMillis("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000)
 * assert.strictEqual(Answer.retryAfterMillis("1.5", now), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const retryAfterMillis = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (deltaSeconds.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER)
  if (!httpDate.test(text)) return undefined
  const date = Date.parse(text.endsWith("GMT") ? text : text + " GMT")
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * A body's `Content-Length` as a number of bytes; `undefined` when absent or not a whole number.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.strictEqual(Answer.contentLength(" 2048 "), 2048)
 * assert.strictEqual(Answer.contentLength("-1"), undefined)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const contentLength = (value: string | undefined): number | undefined =>
  value !== undefined && deltaSeconds.test(value.trim()) ? Number(value) : undefined

/**
 * A redirect's `Location` as an error shows it: origin and path (relative ones resolved against
 * nothing, so shown as sent), never its query (an echo of the signed query would carry the
 * signature) or credentials, made safe.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.strictEqual(
 *   Answer.redirectLocation("https://user:pw@api.example.com/api/v3/x?timestamp=1&signature=abc"),
 *   "https://api.example.com/api/v3/x?…"
 * )
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const redirectLocation = (value: string): string => {
  const cut = value.search(/[?#]/)
  const withoutQuery = cut === -1 ? value : value.slice(0, cut) + "?…"
  return ServerText.sanitize(withoutQuery.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1"), 200)
}

/**
 * An answer that is the service's refusal: any status outside 2xx, or a 2xx whose body is a
 * `{code,msg}` failure body, or an envelope with a code other than 0, where a value was expected.
 * `code` and `msg` come from the body when it is one (`msg` made safe), otherwise `msg` is the body's
 * start.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * const answer: Answer.Refused = Answer.refused(503, undefined, "<html>\n")
 * assert.deepStrictEqual(answer, { _tag: "Refused", status: 503, code: undefined, msg: "<html>\uFFFD" })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Refused {
  readonly _tag: "Refused"
  readonly status: number
  readonly code: number | undefined
  readonly msg: string
}

/**
 * A refusal, its `msg` made safe.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.strictEqual(Answer.refused(400, 33333, "Param is error").code, 33333)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const refused = (status: number, code: number | undefined, msg: string): Refused => ({
  _tag: "Refused",
  status,
  code,
  msg: ServerText.sanitize(msg)
})

/**
 * What a line's decoder made of a body's JSON value: the value, or a description of what is wrong
 * with it (made only when it is needed: a body that is a refusal is not described).
 *
 * @example
 * ```ts
 * import type * as Answer from "@broker-history/core/request/Answer"
 *
 * const decodeArray = (json: unknown): Answer.Decoded<ReadonlyArray<unknown>> =>
 *   Array.isArray(json) ? { _tag: "Decoded", value: json } : { _tag: "Undecoded", describe: () => "expected an array" }
 * assert.strictEqual(decodeArray({})._tag, "Undecoded")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Decoded<A> =
  | { readonly _tag: "Decoded"; readonly value: A }
  | { readonly _tag: "Undecoded"; readonly describe: () => string }

/**
 * What an answer says: the body decoded, a `ResponseDecodeError` when a 2xx body is not what was
 * expected, or the refusal to classify with `refusal`.
 *
 * @example
 * ```ts
 * import type * as Answer from "@broker-history/core/request/Answer"
 *
 * const read: Answer.Read<number> = { _tag: "Decoded", value: 1 }
 * assert.strictEqual(read._tag, "Decoded")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Read<A> = { readonly _tag: "Decoded"; readonly value: A } | Refused | BrokerError.ResponseDecodeError

const parseJson = (body: JsonBody.Body): { readonly json: unknown } | { readonly problem: string } => {
  try {
    return { json: JsonBody.parse(body) }
  } catch (e) {
    return { problem: e instanceof Error ? e.message : "not JSON" }
  }
}

const isPlainObject = (u: unknown): u is object => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * What an answer says (see `Read`): the body decoded with `decode` (2xx); the refusal a body states
 * (`refusalBody`: a `{code,msg}` failure body as each line's schema reads it, else an envelope whose
 * code is not 0), for any status outside 2xx or a 2xx whose body is one where a value was expected;
 * otherwise a `ResponseDecodeError`, `InvalidJson` (not JSON) or `UnexpectedShape`.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 * import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
 *
 * const decodeArray = (json: unknown): Answer.Decoded<ReadonlyArray<unknown>> =>
 *   Array.isArray(json) ? { _tag: "Decoded", value: json } : { _tag: "Undecoded", describe: () => "expected an array" }
 * const list = { endpoint: "subAccountList" }
 * const reply = (status: number, body: unknown) => ({ status, retryAfter: undefined, body: JSON.stringify(body) })
 * assert.deepStrictEqual(Answer.read(list, reply(200, []), decodeArray, ErrorBody.fromEnvelope, 1), { _tag: "Decoded", value: [] })
 * assert.deepStrictEqual(
 *   Answer.read(list, reply(200, { code: "700001", message: "bad key", data: null }), decodeArray, ErrorBody.fromEnvelope, 1),
 *   { _tag: "Refused", status: 200, code: 700001, msg: "bad key" }
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const read = <A>(
  ctx: BrokerError.RequestContext,
  reply: Reply,
  decode: (json: unknown) => Decoded<A>,
  refusalBody: (json: unknown) => ErrorBody.ErrorBody | undefined,
  attempts: number
): Read<A> => {
  const parsed = parseJson(reply.body)
  if (reply.status < 200 || reply.status >= 300) {
    const body = "json" in parsed ? refusalBody(parsed.json) : undefined
    return body !== undefined
      ? refused(reply.status, body.code, body.msg)
      : refused(reply.status, undefined, excerpt(reply.body))
  }
  if ("problem" in parsed) {
    return {
      _tag: "ResponseDecodeError",
      request: ctx,
      status: reply.status,
      reason: "InvalidJson",
      description: ServerText.sanitize(parsed.problem),
      excerpt: excerpt(reply.body),
      attempts
    }
  }
  const value = decode(parsed.json)
  if (value._tag === "Decoded") return value
  const body = isPlainObject(parsed.json) ? refusalBody(parsed.json) : undefined
  if (body !== undefined) return refused(reply.status, body.code, body.msg)
  return {
    _tag: "ResponseDecodeError",
    request: ctx,
    status: reply.status,
    reason: "UnexpectedShape",
    description: value.describe(),
    excerpt: excerpt(reply.body),
    attempts
  }
}

/**
 * A refusal as a failure, by the error table (docs/wire-contract.md, "Errors"): the status, and the
 * code for a 4xx or a 2xx. A 3xx (or status 0) is a redirect the client does not follow. A
 * `Retry-After` (read at `now`) longer than `maxRetryAfterMillis` marks the `RateLimited` as failing
 * at once.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * const ctx = { endpoint: "transferHistory" }
 * const reply = { status: 429, retryAfter: "2", body: "" }
 * assert.deepStrictEqual(Answer.refusal(ctx, Answer.refused(429, 429, "Too many requests."), reply, 0, 3, 60_000), {
 *   _tag: "RateLimited",
 *   request: ctx,
 *   status: 429,
 *   code: 429,
 *   msg: "Too many requests.",
 *   retryAfterMillis: 2000,
 *   attempts: 3
 * })
 * assert.strictEqual(Answer.refusal(ctx, Answer.refused(400, 700002, "bad"), reply, 0, 1, 60_000)._tag, "AuthenticationError")
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const refusal = (
  ctx: BrokerError.RequestContext,
  answer: Refused,
  reply: Pick<Reply, "retryAfter" | "location">,
  now: number,
  attempts: number,
  maxRetryAfterMillis: number
): BrokerError.BrokerError => {
  const { code, msg, status } = answer
  // Status 0: fetch's manual redirect in a browser (an opaque redirect, its Location hidden).
  if (status === 0 || status >= 300 && status < 400) {
    return {
      _tag: "TransportError",
      request: ctx,
      reason: "Redirect",
      description: status === 0
        ? "the service answered a redirect the runtime does not show (status 0)"
        : `the service answered ${status} ${
          reply.location === undefined ? "without a Location" : `redirecting to ${redirectLocation(reply.location)}`
        }`,
      attempts
    }
  }
  if (status === 429 || status === 418 || code === ErrorBody.Code.TooManyRequests && status < 500) {
    const retryAfter = retryAfterMillis(reply.retryAfter, now) ?? 0
    return {
      _tag: "RateLimited",
      request: ctx,
      status,
      code: code ?? status,
      msg,
      retryAfterMillis: retryAfter,
      ...(retryAfter > maxRetryAfterMillis ? { maxRetryAfterMillis } : {}),
      attempts
    }
  }
  if (status >= 500) {
    return { _tag: "ServerError", request: ctx, status, ...(code === undefined ? {} : { code }), msg, attempts }
  }
  if (status === 408) {
    return {
      _tag: "TransportError",
      request: ctx,
      reason: "Timeout",
      description: "the service answered 408 Request Timeout",
      attempts
    }
  }
  switch (code) {
    case ErrorBody.Code.InvalidApiKey:
      return { _tag: "AuthenticationError", request: ctx, status, code, msg, reason: "ApiKey" }
    case ErrorBody.Code.BadSignature:
      return { _tag: "AuthenticationError", request: ctx, status, code, msg, reason: "Signature" }
    case ErrorBody.Code.NoPermission:
      return { _tag: "AuthenticationError", request: ctx, status, code, msg, reason: "Permission" }
    case ErrorBody.Code.TimestampOutsideRecvWindow:
      return { _tag: "TimestampRejected", request: ctx, status, code, msg }
    case undefined:
      if (status === 401 || status === 403) {
        return {
          _tag: "AuthenticationError",
          request: ctx,
          status,
          code: status,
          msg,
          reason: status === 401 ? "ApiKey" : "Permission"
        }
      }
      return { _tag: "ApiError", request: ctx, status, code: status, msg }
    default:
      return { _tag: "ApiError", request: ctx, status, code, msg }
  }
}

/**
 * A body over `maxBytes` (`declared`: its `Content-Length`, when that is what showed it), not read.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * assert.strictEqual(
 *   Answer.tooLarge({ endpoint: "transferHistory" }, 200, 1024, 2048, 1).description,
 *   "Content-Length 2048 is more than maxResponseBytes (1024 bytes); nothing was read"
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const tooLarge = (
  ctx: BrokerError.RequestContext,
  status: number,
  maxBytes: number,
  declared: number | undefined,
  attempts: number
): BrokerError.ResponseDecodeError => ({
  _tag: "ResponseDecodeError",
  request: ctx,
  status,
  reason: "TooLarge",
  description: declared === undefined
    ? `more than maxResponseBytes (${maxBytes} bytes) arrived; the rest was not read`
    : `Content-Length ${declared} is more than maxResponseBytes (${maxBytes} bytes); nothing was read`,
  excerpt: "",
  attempts
})

// Platform errors name the request URL, which carries the signature: keep only the cause's text.
const scrub = (text: string): string => text.replace(/\?[^\s)"']*/g, "?…")

const describeCause = (cause: unknown): string =>
  cause instanceof Error ? [cause.message, (cause as { code?: unknown }).code].filter(Boolean).join(" ") : ""

/**
 * A transport failure (`cause` as thrown by the carrier) as a `TransportError`, with no URL (and so
 * no signature) in its description, made safe (a parser's complaint may quote what the service
 * sent): `detail` (the carrier's own description, when it has one), then the cause's message, code
 * and cause; `fallback` when there is neither. `reason` is detected from the cause unless given.
 *
 * @example
 * ```ts
 * import * as Answer from "@broker-history/core/request/Answer"
 *
 * const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })
 * assert.deepStrictEqual(Answer.transportCause({ endpoint: "transferHistory" }, undefined, refused, 6), {
 *   _tag: "TransportError",
 *   request: { endpoint: "transferHistory" },
 *   reason: "Connect",
 *   description: "connect ECONNREFUSED 127.0.0.1:1: ECONNREFUSED",
 *   attempts: 6
 * })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const transportCause = (
  ctx: BrokerError.RequestContext,
  reason: "Body" | undefined,
  cause: unknown,
  attempts: number,
  fallback = "the exchange failed",
  detail?: string
): BrokerError.TransportError => {
  const causeText = cause instanceof Error
    ? [cause.message, (cause as { code?: unknown }).code, describeCause(cause.cause)].filter(Boolean).join(": ")
    : ""
  const text = [detail, causeText].filter(Boolean).join(": ")
  return {
    _tag: "TransportError",
    request: ctx,
    reason: reason ?? (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connect/i.test(causeText) ? "Connect" : "Other"),
    description: ServerText.sanitize(scrub(text === "" ? fallback : text)),
    attempts
  }
}
