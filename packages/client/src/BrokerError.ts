/**
 * The typed failures of every broker call. Each carries what a user needs to act on it: the
 * endpoint, the HTTP status, the service's code and message, the attempt count, and for requests
 * that cover a time window, the window and page. The fields and messages are
 * `@broker-history/core/error/BrokerError`'s, the same in both lines of packages.
 *
 * @since 0.1.0
 */
import * as Core from "@broker-history/core/error/BrokerError"
import * as Schema from "effect/Schema"

/**
 * Which request failed: the endpoint, and when the query had them, its time window and page.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 * import { Schema } from "effect"
 *
 * const where = Schema.decodeUnknownSync(BrokerError.RequestContext)({ endpoint: "depositHistory", page: 2 })
 * assert.deepStrictEqual(where, { endpoint: "depositHistory", page: 2 })
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestContext = Schema.Struct({
  endpoint: Schema.String,
  startTime: Schema.optional(Schema.Number),
  endTime: Schema.optional(Schema.Number),
  page: Schema.optional(Schema.Number)
})

/**
 * Which request failed (see the schema of the same name).
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const where: BrokerError.RequestContext = {
 *   endpoint: "depositHistory",
 *   startTime: 1735689600000,
 *   endTime: 1736553599999,
 *   page: 2
 * }
 * const error = new BrokerError.ServerError({ request: where, status: 503, attempts: 6 })
 * assert.ok(
 *   error.message.startsWith("depositHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2)")
 * )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type RequestContext = typeof RequestContext.Type

// The fields of an answer in which the service refused the request with its `{code,msg}` body.
const refusal = {
  request: RequestContext,
  status: Schema.Number,
  code: Schema.Number,
  msg: Schema.String
}

/**
 * How the error's message names the settings it mentions, as the layer was configured: the option,
 * and the variable it came from when read from the `BROKER_*` environment (`BrokerConfig.Settings`'s
 * `names`). Without it, the option alone.
 */
const names = Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))

/**
 * A query or a stream's options broke a rule. Nothing was sent. Every one has the same fields:
 * `parameter` names the option or parameter as the caller wrote it (`limit`, `since`,
 * `follow.interval`, `streams[2].until`), `rule` says what is wrong with it, and `fix`, when the rule
 * alone does not say it, what to do instead (otherwise: fix `parameter`). The rules of every query
 * and option are in docs/streams.md ("Options and their rules") and docs/wire-contract.md.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.InvalidQuery({
 *   endpoint: "transferHistory",
 *   parameter: "limit",
 *   rule: "must be an integer from 1 to 500"
 * })
 * assert.strictEqual(
 *   error.message,
 *   "Invalid transferHistory query: limit must be an integer from 1 to 500. Nothing was sent; fix limit."
 * )
 * assert.strictEqual(BrokerError.isRetryable(error), false)
 *
 * const unknown = new BrokerError.InvalidQuery({
 *   endpoint: "depositHistory",
 *   parameter: "pageSize",
 *   rule: "is not an option of this stream",
 *   fix: "remove it (the options: coin, status, since, until, resume, limit, concurrency)"
 * })
 * assert.strictEqual(
 *   unknown.message,
 *   "Invalid depositHistory query: pageSize is not an option of this stream. Nothing was sent; " +
 *     "remove it (the options: coin, status, since, until, resume, limit, concurrency)."
 * )
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidQuery extends Schema.TaggedError<InvalidQuery>("@broker-history/client/InvalidQuery")(
  "InvalidQuery",
  {
    endpoint: Schema.String,
    parameter: Schema.String,
    rule: Schema.String,
    /** What to do, when the rule does not say it (default: fix `parameter`). Since 0.2.0. */
    fix: Schema.optional(Schema.String)
  }
) {
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The service rejected the credentials: unknown API key (700001), bad signature (700002) or a key
 * without the endpoint's permission (700007). Not retried.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.AuthenticationError({
 *   request: { endpoint: "transferHistory" },
 *   status: 401,
 *   code: 700002,
 *   msg: "Signature for this request is not valid.",
 *   reason: "Signature"
 * })
 * assert.ok(
 *   error.message.endsWith(
 *     "check the secret key, secretKey: it must be the secret of this API key."
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class AuthenticationError
  extends Schema.TaggedError<AuthenticationError>("@broker-history/client/AuthenticationError")(
    "AuthenticationError",
    { ...refusal, reason: Schema.Literal("ApiKey", "Signature", "Permission"), names }
  )
{
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The service rejected the request timestamp (700003) even after the clock was resynchronised and
 * the request re-signed. Check the machine's clock, or raise `recvWindow` (BROKER_RECV_WINDOW).
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.TimestampRejected({
 *   request: { endpoint: "depositHistory" },
 *   status: 400,
 *   code: 700003,
 *   msg: "Timestamp for this request is outside of the recvWindow."
 * })
 * assert.ok(error.message.includes("check the machine clock or raise recvWindow"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class TimestampRejected
  extends Schema.TaggedError<TimestampRejected>("@broker-history/client/TimestampRejected")(
    "TimestampRejected",
    { ...refusal, names }
  )
{
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The service answered 429 (or 418) and the retry budget ran out, or it asked for a longer wait than
 * `retry.maxRetryAfter` allows (`maxRetryAfterMillis` is then set, and the request failed at once
 * without waiting). `retryAfterMillis` is what the service asked for last (0: nothing usable). Lower
 * the client's rate-limit budget or run fewer streams at once; for a long wait, try again later.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.RateLimited({
 *   request: { endpoint: "transferHistory" },
 *   status: 429,
 *   code: 429,
 *   msg: "Too many requests.",
 *   retryAfterMillis: 1000,
 *   attempts: 6
 * })
 * assert.ok(error.message.includes("retry after 1000 ms) after 6 attempts"))
 * assert.strictEqual(BrokerError.isRetryable(error), true)
 *
 * // A wait longer than retry.maxRetryAfter: the request failed at once.
 * const tooLong = new BrokerError.RateLimited({
 *   request: { endpoint: "transferHistory" },
 *   status: 429,
 *   code: 429,
 *   msg: "Too many requests.",
 *   retryAfterMillis: 100_000_000,
 *   maxRetryAfterMillis: 60_000,
 *   attempts: 1
 * })
 * assert.ok(tooLong.message.includes("the service asked to wait 1d 3h 46m 40s, longer than the 1m the client waits"))
 * assert.ok(tooLong.message.includes("raise retry.maxRetryAfter"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>("@broker-history/client/RateLimited")("RateLimited", {
  ...refusal,
  retryAfterMillis: Schema.Number,
  /**
   * Set when the wait asked for was longer than `retry.maxRetryAfter` (this many ms): the request
   * failed at once, without waiting.
   */
  maxRetryAfterMillis: Schema.optional(Schema.Number),
  attempts: Schema.Number,
  names
}) {
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The service failed (5xx) on every attempt. Usually transient: try again later.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.ServerError({ request: { endpoint: "transferHistory" }, status: 503, attempts: 6 })
 * assert.strictEqual(
 *   error.message,
 *   "transferHistory failed with a server error (503) after 6 attempts; " +
 *     "the service is having trouble, try again later."
 * )
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>("@broker-history/client/ServerError")("ServerError", {
  request: RequestContext,
  status: Schema.Number,
  code: Schema.optional(Schema.Number),
  msg: Schema.optional(Schema.String),
  attempts: Schema.Number
}) {
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * Any other `{code,msg}` refusal (for example 33333 "Param is error", 700004, 700005). Not retried:
 * the request itself must change. `window` is set when a full-history stream gave up on a window the
 * service refused as too wide (docs/streams.md, "Window widths"): even narrowed to the floor, or after
 * it had accepted a window as wide; the message then names the setting to lower.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.ApiError({
 *   request: { endpoint: "depositHistory" },
 *   status: 400,
 *   code: 33333,
 *   msg: "Param is error: window too wide"
 * })
 * assert.strictEqual(
 *   error.message,
 *   "depositHistory was refused by the service (400 33333 Param is error: window too wide); " +
 *     "change the request as the message says."
 * )
 * const narrowed = new BrokerError.ApiError({
 *   request: { endpoint: "transferHistory" },
 *   status: 400,
 *   code: 33333,
 *   msg: "time window too large",
 *   window: { refused: 60_000, accepted: 0, setting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)" }
 * })
 * assert.ok(narrowed.message.includes("refuses windows of 1m as too wide even after narrowing"))
 * assert.ok(narrowed.message.includes("set maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class ApiError extends Schema.TaggedError<ApiError>("@broker-history/client/ApiError")("ApiError", {
  ...refusal,
  /**
   * A full-history stream's window refused as too wide, which it gave up narrowing: its width (ms),
   * the widest window the service answered before (ms, 0 when none) and the setting that bounds the
   * windows, as the message names it. Since 0.2.0.
   */
  window: Schema.optional(Schema.Struct({ refused: Schema.Number, accepted: Schema.Number, setting: Schema.String }))
}) {
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The request did not complete: connection refused or reset, timeout, or the body was cut off
 * (retried; this is the last attempt's failure: check the network and `baseUrl`), or the
 * service answered with a redirect (`Redirect`: 3xx, not followed and not retried; `description` names
 * the status and the `Location`, without its query: `baseUrl` is not the service's API address).
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.TransportError({
 *   request: { endpoint: "transferHistory" },
 *   reason: "Timeout",
 *   description: "no answer within 10 seconds",
 *   attempts: 6
 * })
 * assert.ok(
 *   error.message.startsWith(
 *     "transferHistory did not complete (Timeout: no answer within 10 seconds) after 6 attempts"
 *   )
 * )
 *
 * const redirected = new BrokerError.TransportError({
 *   request: { endpoint: "transferHistory" },
 *   reason: "Redirect",
 *   description: "the service answered 301 redirecting to https://www.example.com/api/v3/broker/sub-account/universalTransfer?…",
 *   attempts: 1
 * })
 * assert.ok(redirected.message.includes("check baseUrl"))
 * assert.strictEqual(BrokerError.isRetryable(redirected), false)
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>("@broker-history/client/TransportError")(
  "TransportError",
  {
    request: RequestContext,
    reason: Schema.Literal("Connect", "Timeout", "Body", "Redirect", "Other"),
    description: Schema.String,
    attempts: Schema.Number,
    names
  }
) {
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The answer was not what the API promises: not JSON (`InvalidJson`, retried as a damaged answer),
 * JSON of another shape (`UnexpectedShape`), a body larger than `maxResponseBytes` (`TooLarge`,
 * nothing of it kept), or records the query did not ask for: outside its time window or for other
 * accounts (`OutsideQuery`, the first such record named in `description`). `excerpt` shows the
 * start of the body.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.ResponseDecodeError({
 *   request: { endpoint: "transferHistory" },
 *   status: 200,
 *   reason: "UnexpectedShape",
 *   description: "[0].amount: expected decimal text",
 *   excerpt: `[{"amount":1}]`,
 *   attempts: 1
 * })
 * assert.ok(error.message.includes(`body starts: "[{\\"amount\\":1}]"`))
 * assert.strictEqual(BrokerError.isRetryable(error), false)
 *
 * const tooLarge = new BrokerError.ResponseDecodeError({
 *   request: { endpoint: "transferHistory" },
 *   status: 200,
 *   reason: "TooLarge",
 *   description: "Content-Length 10737418240 is more than maxResponseBytes (16777216 bytes); nothing was read",
 *   excerpt: "",
 *   attempts: 1
 * })
 * assert.ok(tooLarge.message.includes("raise maxResponseBytes if"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseDecodeError
  extends Schema.TaggedError<ResponseDecodeError>("@broker-history/client/ResponseDecodeError")(
    "ResponseDecodeError",
    {
      request: RequestContext,
      status: Schema.Number,
      reason: Schema.Literal("InvalidJson", "UnexpectedShape", "TooLarge", "OutsideQuery"),
      description: Schema.String,
      excerpt: Schema.String,
      attempts: Schema.Number,
      names
    }
  )
{
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * A full-history stream could not read every record of one crowded millisecond: the service stopped
 * serving its pages. `reason` says how: `PageLimit` (more pages than `maxPagesPerMillisecond`),
 * `EmptyPage` (a page after a full one came back empty), or `NothingNew` (a page after a full one
 * repeated records already read: a service that caps or ignores `page`). Records of that millisecond
 * may be missing. With `onIncomplete: "warn"` the stream logs it and goes on instead of failing.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.IncompleteHistory({
 *   request: { endpoint: "transferHistory", startTime: 1767225600000, endTime: 1767225600000, page: 3 },
 *   time: 1767225600000,
 *   received: 1000,
 *   pages: 2,
 *   reason: "EmptyPage"
 * })
 * assert.ok(error.message.includes("1000 records in 2 pages, then page 3 came back empty"))
 * assert.strictEqual(BrokerError.isRetryable(error), false)
 * ```
 *
 * @since 0.2.0
 * @category errors
 */
export class IncompleteHistory
  extends Schema.TaggedError<IncompleteHistory>("@broker-history/client/IncompleteHistory")("IncompleteHistory", {
    request: RequestContext,
    /** The crowded millisecond (Unix ms). */
    time: Schema.Number,
    /** Distinct records of that millisecond received. */
    received: Schema.Number,
    /** Pages of that millisecond read. */
    pages: Schema.Number,
    reason: Schema.Literal("PageLimit", "EmptyPage", "NothingNew"),
    names
  })
{
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * The sub-account list did not end within the bounds of `BrokerHistory.subAccounts`: more distinct
 * names than `maxSubAccounts` (`TooMany`), a full page whose names had all been read already
 * (`NothingNew`: a service that ignores `page`), or more full pages than `maxSubAccounts` names fill
 * (`PageLimit`: a service that keeps answering full pages of mostly repeated names). Nothing is kept
 * past the bound; the stream ends with this error. Not retried: the same list gives the same answer.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const error = new BrokerError.SubAccountListTooLong({
 *   request: { endpoint: "subAccountList", page: 501 },
 *   maxSubAccounts: 100_000,
 *   received: 100_000,
 *   pages: 501,
 *   reason: "TooMany"
 * })
 * assert.ok(error.message.includes("more than maxSubAccounts (100000) distinct sub-accounts"))
 * assert.strictEqual(BrokerError.isRetryable(error), false)
 * ```
 *
 * @since 0.2.0
 * @category errors
 */
export class SubAccountListTooLong
  extends Schema.TaggedError<SubAccountListTooLong>("@broker-history/client/SubAccountListTooLong")(
    "SubAccountListTooLong",
    {
      request: RequestContext,
      /** The bound: the most distinct sub-accounts the stream reads. */
      maxSubAccounts: Schema.Number,
      /** Distinct sub-accounts read (and emitted) before the stream stopped. */
      received: Schema.Number,
      /** Pages read, the last one included. */
      pages: Schema.Number,
      reason: Schema.Literal("TooMany", "NothingNew", "PageLimit")
    }
  )
{
  override get message(): string {
    return Core.message(this)
  }
}

/**
 * Every failure a broker call can end with.
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 * import { Effect } from "effect"
 *
 * const call: Effect.Effect<number, BrokerError.BrokerError> = Effect.fail(
 *   new BrokerError.RateLimited({
 *     request: { endpoint: "transferHistory" },
 *     status: 429,
 *     code: 429,
 *     msg: "Too many requests.",
 *     retryAfterMillis: 1000,
 *     attempts: 6
 *   })
 * )
 * const waitFor = call.pipe(Effect.catchTag("RateLimited", (e) => Effect.succeed(e.retryAfterMillis)))
 * assert.strictEqual(Effect.runSync(waitFor), 1000)
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export type BrokerError =
  | InvalidQuery
  | AuthenticationError
  | TimestampRejected
  | RateLimited
  | ServerError
  | ApiError
  | TransportError
  | ResponseDecodeError
  | IncompleteHistory
  | SubAccountListTooLong

/**
 * True for failures worth another attempt: 5xx, 429/418, transport failures and damaged (non-JSON)
 * bodies. 4xx refusals, redirects, unexpected shapes and bodies over `maxResponseBytes` are final. (A
 * 429/418 asking for more than `retry.maxRetryAfter` is worth another attempt, later: the request
 * pipeline gives up on it at once; a follow stream waits it out.)
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/client"
 *
 * const request = { endpoint: "transferHistory" }
 * assert.strictEqual(BrokerError.isRetryable(new BrokerError.ServerError({ request, status: 502, attempts: 1 })), true)
 * assert.strictEqual(
 *   BrokerError.isRetryable(
 *     new BrokerError.ApiError({ request, status: 400, code: 700004, msg: "Mandatory parameter" })
 *   ),
 *   false
 * )
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isRetryable = (error: BrokerError): boolean => Core.isRetryable(error)
