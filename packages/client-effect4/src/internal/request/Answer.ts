/**
 * How an HTTP answer becomes a result or a typed error (docs/wire-contract.md, "Errors").
 *
 * @internal
 */
import * as JsonBody from "@broker-history/core/request/JsonBody"
import * as ServerText from "@broker-history/core/request/ServerText"
import type { Endpoint } from "@broker-history/domain-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClientError from "effect/http/HttpClientError"
import * as Result from "effect/Result"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type { RequestContext } from "../../BrokerError.js"
import * as BrokerError from "../../BrokerError.js"
import * as DecodeIssue from "./DecodeIssue.js"

/** A decoder of a body's JSON value: the value, or the first issue of what is wrong with it. */
export type Decode<A> = (u: unknown) => Result.Result<A, SchemaIssue.Issue>

/**
 * A complete answer: status, the `Retry-After` header when present, and the body: its bytes (this
 * answer's own copy: `JsonBody.parse` may briefly change a byte in it) or its text.
 */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  /** The `Location` header (read for a 3xx only). */
  readonly location?: string | undefined
  readonly body: JsonBody.Body
}

/** The request context of a query: endpoint, plus window and page when the query has them. */
export const requestContext = (
  endpoint: string,
  params: ReadonlyArray<readonly [string, string]>
): RequestContext => {
  const ctx: { endpoint: string; startTime?: number; endTime?: number; page?: number } = { endpoint }
  for (const [name, value] of params) {
    if (name === "startTime") ctx.startTime = Number(value)
    else if (name === "endTime") ctx.endTime = Number(value)
    else if (name === "page") ctx.page = Number(value)
  }
  return ctx
}

const decodeErrorBody = SchemaParser.decodeUnknownResult(ErrorBody.ErrorBody)

/**
 * The refusal a body states: a `{code,msg}` failure body, or an envelope (`{code, message, data}`, the
 * sub-account list's) whose code is not 0. `undefined` for any other body.
 */
const refusalBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  const body = decodeErrorBody(u)
  return Result.isSuccess(body) ? body.success : ErrorBody.fromEnvelope(u)
}

const parseJson = (body: JsonBody.Body): Result.Result<unknown, string> => {
  try {
    return Result.succeed(JsonBody.parse(body))
  } catch (e) {
    return Result.fail(e instanceof Error ? e.message : "not JSON")
  }
}

/** The start of a body for an error: at most 200 characters of its text, made safe (at most 1 KiB decoded). */
const excerpt = (body: JsonBody.Body): string =>
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
 * Retry-After in ms: whole delta-seconds, or an HTTP date (one in the past is 0: no wait). `undefined`
 * when absent or unreadable (negative, fractional, any other text): the retry then backs off as after
 * any failure. Seconds beyond 2^53 ms are read as 2^53 ms (longer than any `retry.maxRetryAfter`).
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
 * An answer that is the service's refusal: any status outside 2xx, or a 2xx whose body is a
 * `{code,msg}` failure body, or an envelope with a code other than 0, where a value was expected.
 * `code` and `msg` come from the body when it is one (`msg` made safe), otherwise `msg` is the body's
 * start.
 */
export interface Refused {
  readonly _tag: "Refused"
  readonly status: number
  readonly code: number | undefined
  readonly msg: string
}

const refused = (status: number, code: number | undefined, msg: string): Refused => ({
  _tag: "Refused",
  status,
  code,
  msg: ServerText.sanitize(msg)
})

/**
 * What an answer says: the body decoded with `decode` (2xx), a `ResponseDecodeError` when a 2xx body
 * is not what was expected, or the refusal to classify with `refusal` (it needs the time, for
 * `Retry-After`). A 2xx `{code,msg}` body, or an envelope with another code than 0, is a refusal: the
 * service said no with a success status.
 */
export const read = <A>(
  ctx: RequestContext,
  reply: Reply,
  decode: Decode<A>,
  attempts: number
): Result.Result<A, BrokerError.ResponseDecodeError | Refused> => {
  const json = parseJson(reply.body)
  if (reply.status < 200 || reply.status >= 300) {
    const body = Result.isSuccess(json) ? refusalBody(json.success) : undefined
    return Result.fail(
      body !== undefined
        ? refused(reply.status, body.code, body.msg)
        : refused(reply.status, undefined, excerpt(reply.body))
    )
  }
  if (Result.isFailure(json)) {
    return Result.fail(
      new BrokerError.ResponseDecodeError({
        request: ctx,
        status: reply.status,
        reason: "InvalidJson",
        description: ServerText.sanitize(json.failure),
        excerpt: excerpt(reply.body),
        attempts
      })
    )
  }
  const value = decode(json.success)
  if (Result.isSuccess(value)) return Result.succeed(value.success)
  const body = isPlainObject(json.success) ? refusalBody(json.success) : undefined
  if (body !== undefined) return Result.fail(refused(reply.status, body.code, body.msg))
  return Result.fail(
    new BrokerError.ResponseDecodeError({
      request: ctx,
      status: reply.status,
      reason: "UnexpectedShape",
      description: DecodeIssue.describe(value.failure, json.success),
      excerpt: excerpt(reply.body),
      attempts
    })
  )
}

const isPlainObject = (u: unknown): u is object => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A refusal as a typed error, by the error table (docs/wire-contract.md, "Errors"): the status, and
 * the code for a 4xx or a 2xx. A 3xx (or status 0) is a redirect the client does not follow. A
 * `Retry-After` longer than `maxRetryAfterMillis` marks the `RateLimited` as failing at once.
 */
export const refusal = (
  ctx: RequestContext,
  answer: Refused,
  reply: Reply,
  now: number,
  attempts: number,
  maxRetryAfterMillis: number
): BrokerError.BrokerError => {
  const { code, msg, status } = answer
  // Status 0: fetch's manual redirect in a browser (an opaque redirect, its Location hidden).
  if (status === 0 || status >= 300 && status < 400) {
    return new BrokerError.TransportError({
      request: ctx,
      reason: "Redirect",
      description: status === 0
        ? "the service answered a redirect the runtime does not show (status 0)"
        : `the service answered ${status} ${
          reply.location === undefined ? "without a Location" : `redirecting to ${location(reply.location)}`
        }`,
      attempts
    })
  }
  if (status === 429 || status === 418 || code === ErrorBody.Code.TooManyRequests && status < 500) {
    const retryAfter = retryAfterMillis(reply.retryAfter, now) ?? 0
    return new BrokerError.RateLimited({
      request: ctx,
      status,
      code: code ?? status,
      msg,
      retryAfterMillis: retryAfter,
      ...(retryAfter > maxRetryAfterMillis ? { maxRetryAfterMillis } : {}),
      attempts
    })
  }
  if (status >= 500) {
    return new BrokerError.ServerError({
      request: ctx,
      status,
      ...(code === undefined ? {} : { code }),
      msg,
      attempts
    })
  }
  if (status === 408) {
    return new BrokerError.TransportError({
      request: ctx,
      reason: "Timeout",
      description: "the service answered 408 Request Timeout",
      attempts
    })
  }
  switch (code) {
    case ErrorBody.Code.InvalidApiKey:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "ApiKey" })
    case ErrorBody.Code.BadSignature:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "Signature" })
    case ErrorBody.Code.NoPermission:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "Permission" })
    case ErrorBody.Code.TimestampOutsideRecvWindow:
      return new BrokerError.TimestampRejected({ request: ctx, status, code, msg })
    case undefined:
      if (status === 401 || status === 403) {
        return new BrokerError.AuthenticationError({
          request: ctx,
          status,
          code: status,
          msg,
          reason: status === 401 ? "ApiKey" : "Permission"
        })
      }
      return new BrokerError.ApiError({ request: ctx, status, code: status, msg })
    default:
      return new BrokerError.ApiError({ request: ctx, status, code, msg })
  }
}

/**
 * A redirect's `Location` as an error shows it: origin and path (relative ones resolved against
 * nothing, so shown as sent), never its query (an echo of the signed query would carry the signature)
 * or credentials, made safe.
 */
const location = (value: string): string => {
  const cut = value.search(/[?#]/)
  const withoutQuery = cut === -1 ? value : value.slice(0, cut) + "?…"
  return ServerText.sanitize(withoutQuery.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1"), 200)
}

/** A body over `maxBytes` (`declared`: its `Content-Length`, when that is what showed it), not read. */
export const tooLarge = (
  ctx: RequestContext,
  status: number,
  maxBytes: number,
  declared: number | undefined,
  attempts: number
): BrokerError.ResponseDecodeError =>
  new BrokerError.ResponseDecodeError({
    request: ctx,
    status,
    reason: "TooLarge",
    description: declared === undefined
      ? `more than maxResponseBytes (${maxBytes} bytes) arrived; the rest was not read`
      : `Content-Length ${declared} is more than maxResponseBytes (${maxBytes} bytes); nothing was read`,
    excerpt: "",
    attempts
  })

/** A body's `Content-Length` as a number of bytes; `undefined` when absent or not a whole number. */
export const contentLength = (value: string | undefined): number | undefined =>
  value !== undefined && deltaSeconds.test(value.trim()) ? Number(value) : undefined

// Platform errors name the request URL, which carries the signature: keep only the cause's text.
const scrub = (text: string): string => text.replace(/\?[^\s)"']*/g, "?…")

/**
 * A transport failure (`cause` as thrown by the carrier) as a `TransportError`, with no URL (and so
 * no signature) in its description, made safe (a parser's complaint may quote what the service sent). `reason` is detected from the cause unless given.
 */
export const transportCause = (
  ctx: RequestContext,
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
  return new BrokerError.TransportError({
    request: ctx,
    reason: reason ?? (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connect/i.test(causeText) ? "Connect" : "Other"),
    description: ServerText.sanitize(scrub(text === "" ? fallback : text)),
    attempts
  })
}

/**
 * A platform transport failure as a `TransportError`, with no URL (and so no signature) in it: the
 * client's own description of it (an application's client may set one, e.g. for its own timeout),
 * then its cause.
 */
export const transportFailure = (
  ctx: RequestContext,
  error: HttpClientError.HttpClientError,
  attempts: number
): BrokerError.TransportError => {
  const reason = error.reason
  return transportCause(
    ctx,
    "response" in reason ? "Body" : undefined,
    reason.cause,
    attempts,
    reason._tag,
    reason.description
  )
}

const describeCause = (cause: unknown): string =>
  cause instanceof Error ? [cause.message, (cause as { code?: unknown }).code].filter(Boolean).join(" ") : ""

/** The request context of an endpoint call. */
export const endpointContext = (endpoint: Endpoint.Endpoint, params: ReadonlyArray<readonly [string, string]>) =>
  requestContext(endpoint.name, params)

/**
 * One attempt's exchange with the platform's failures as `TransportError`s and a deadline: the
 * request, the answer and its body must all complete within `timeout`.
 */
export const withinDeadline = <A, E, R>(
  exchange: Effect.Effect<A, E | HttpClientError.HttpClientError, R>,
  ctx: RequestContext,
  attempt: number,
  timeout: Duration.Duration
): Effect.Effect<A, Exclude<E, HttpClientError.HttpClientError> | BrokerError.TransportError, R> =>
  exchange.pipe(
    Effect.mapError((e) =>
      HttpClientError.isHttpClientError(e)
        ? transportFailure(ctx, e, attempt)
        : e as Exclude<E, HttpClientError.HttpClientError>
    ),
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () =>
        Effect.fail(
          new BrokerError.TransportError({
            request: ctx,
            reason: "Timeout",
            description: `no complete answer within ${Duration.format(timeout)}`,
            attempts: attempt
          })
        )
    })
  )
