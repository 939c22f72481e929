/**
 * The failures of broker calls as plain data: each failure's fields, the message that says what went
 * wrong and what to do (`message`), and whether it is worth another attempt (`isRetryable`). Each
 * line's client has a tagged error class per failure, of the same fields, whose `message` is this
 * one's.
 *
 * @since 0.2.0
 */

/**
 * Which request failed: the endpoint, and when the query had them, its time window and page.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const where: BrokerError.RequestContext = { endpoint: "depositHistory", startTime: 1735689600000, endTime: 1736553599999, page: 2 }
 * assert.strictEqual(
 *   BrokerError.describeRequest(where),
 *   "depositHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2)"
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface RequestContext {
  readonly endpoint: string
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
  readonly page?: number | undefined
}

/**
 * How a message names the settings it mentions, as the layer was configured: the option, and the
 * variable it came from when read from the `BROKER_*` environment. Without it, the option alone.
 *
 * @example
 * ```ts
 * import type * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const names: BrokerError.Names = { baseUrl: "baseUrl (from BROKER_BASE_URL)" }
 * assert.strictEqual(names.baseUrl, "baseUrl (from BROKER_BASE_URL)")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Names = { readonly [setting: string]: string }

/**
 * A query or a stream's options broke a rule; nothing was sent. `fix`, when the rule alone does not
 * say it, is what to do instead (otherwise: fix `parameter`).
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.InvalidQuery = { _tag: "InvalidQuery", endpoint: "transferHistory", parameter: "limit", rule: "must be an integer from 1 to 500" }
 * assert.strictEqual(
 *   BrokerError.message(failure),
 *   "Invalid transferHistory query: limit must be an integer from 1 to 500. Nothing was sent; fix limit."
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface InvalidQuery {
  readonly _tag: "InvalidQuery"
  readonly endpoint: string
  readonly parameter: string
  readonly rule: string
  readonly fix?: string | undefined
}

/**
 * The fields of an answer in which the service refused the request with its `{code,msg}` body.
 *
 * @example
 * ```ts
 * import type * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const refused: BrokerError.Refusal = { request: { endpoint: "transferHistory" }, status: 400, code: 33333, msg: "Param is error" }
 * assert.strictEqual(refused.code, 33333)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Refusal {
  readonly request: RequestContext
  readonly status: number
  readonly code: number
  readonly msg: string
}

/**
 * The service rejected the credentials: unknown API key, bad signature, or a key without the
 * endpoint's permission.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.AuthenticationError = {
 *   _tag: "AuthenticationError",
 *   request: { endpoint: "transferHistory" },
 *   status: 401,
 *   code: 700002,
 *   msg: "Signature for this request is not valid.",
 *   reason: "Signature"
 * }
 * assert.ok(BrokerError.message(failure).endsWith("check the secret key, secretKey: it must be the secret of this API key."))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface AuthenticationError extends Refusal {
  readonly _tag: "AuthenticationError"
  readonly reason: "ApiKey" | "Signature" | "Permission"
  readonly names?: Names | undefined
}

/**
 * The service rejected the request timestamp even after the clock was resynchronised.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.TimestampRejected = {
 *   _tag: "TimestampRejected",
 *   request: { endpoint: "depositHistory" },
 *   status: 400,
 *   code: 700003,
 *   msg: "Timestamp for this request is outside of the recvWindow."
 * }
 * assert.ok(BrokerError.message(failure).includes("check the machine clock or raise recvWindow"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TimestampRejected extends Refusal {
  readonly _tag: "TimestampRejected"
  readonly names?: Names | undefined
}

/**
 * The service answered 429 (or 418) and the retries ran out, or it asked for a longer wait than the
 * client waits (`maxRetryAfterMillis` is then set).
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.RateLimited = {
 *   _tag: "RateLimited",
 *   request: { endpoint: "transferHistory" },
 *   status: 429,
 *   code: 429,
 *   msg: "Too many requests.",
 *   retryAfterMillis: 1000,
 *   attempts: 6
 * }
 * assert.ok(BrokerError.message(failure).includes("retry after 1000 ms) after 6 attempts"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface RateLimited extends Refusal {
  readonly _tag: "RateLimited"
  readonly retryAfterMillis: number
  readonly maxRetryAfterMillis?: number | undefined
  readonly attempts: number
  readonly names?: Names | undefined
}

/**
 * The service failed (5xx) on every attempt.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.ServerError = { _tag: "ServerError", request: { endpoint: "transferHistory" }, status: 503, attempts: 6 }
 * assert.strictEqual(
 *   BrokerError.message(failure),
 *   "transferHistory failed with a server error (503) after 6 attempts; the service is having trouble, try again later."
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ServerError {
  readonly _tag: "ServerError"
  readonly request: RequestContext
  readonly status: number
  readonly code?: number | undefined
  readonly msg?: string | undefined
  readonly attempts: number
}

/**
 * Any other `{code,msg}` refusal; `window` is set when a full-history stream gave up on a window the
 * service refused as too wide.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.ApiError = {
 *   _tag: "ApiError",
 *   request: { endpoint: "depositHistory" },
 *   status: 400,
 *   code: 33333,
 *   msg: "Param is error"
 * }
 * assert.ok(BrokerError.message(failure).endsWith("change the request as the message says."))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ApiError extends Refusal {
  readonly _tag: "ApiError"
  readonly window?: {
    readonly refused: number
    readonly accepted: number
    readonly setting: string
  } | undefined
}

/**
 * The request did not complete (connection, timeout, a body cut off), or was redirected.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.TransportError = {
 *   _tag: "TransportError",
 *   request: { endpoint: "transferHistory" },
 *   reason: "Timeout",
 *   description: "no answer within 10 seconds",
 *   attempts: 6
 * }
 * assert.ok(BrokerError.message(failure).startsWith("transferHistory did not complete (Timeout: no answer within 10 seconds)"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransportError {
  readonly _tag: "TransportError"
  readonly request: RequestContext
  readonly reason: "Connect" | "Timeout" | "Body" | "Redirect" | "Other"
  readonly description: string
  readonly attempts: number
  readonly names?: Names | undefined
}

/**
 * The answer was not what the API promises: not JSON, of another shape, too large, or holding
 * records the query did not ask for.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.ResponseDecodeError = {
 *   _tag: "ResponseDecodeError",
 *   request: { endpoint: "transferHistory" },
 *   status: 200,
 *   reason: "UnexpectedShape",
 *   description: "[0].amount: expected decimal text",
 *   excerpt: `[{"amount":1}]`,
 *   attempts: 1
 * }
 * assert.ok(BrokerError.message(failure).includes(`body starts: "[{\\"amount\\":1}]"`))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ResponseDecodeError {
  readonly _tag: "ResponseDecodeError"
  readonly request: RequestContext
  readonly status: number
  readonly reason: "InvalidJson" | "UnexpectedShape" | "TooLarge" | "OutsideQuery"
  readonly description: string
  readonly excerpt: string
  readonly attempts: number
  readonly names?: Names | undefined
}

/**
 * A full-history stream could not read every record of one crowded millisecond.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.IncompleteHistory = {
 *   _tag: "IncompleteHistory",
 *   request: { endpoint: "transferHistory", page: 3 },
 *   time: 1767225600000,
 *   received: 1000,
 *   pages: 2,
 *   reason: "EmptyPage"
 * }
 * assert.ok(BrokerError.message(failure).includes("1000 records in 2 pages, then page 3 came back empty"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface IncompleteHistory {
  readonly _tag: "IncompleteHistory"
  readonly request: RequestContext
  readonly time: number
  readonly received: number
  readonly pages: number
  readonly reason: "PageLimit" | "EmptyPage" | "NothingNew"
  readonly names?: Names | undefined
}

/**
 * The sub-account list did not end within the stream's bounds.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.SubAccountListTooLong = {
 *   _tag: "SubAccountListTooLong",
 *   request: { endpoint: "subAccountList", page: 501 },
 *   maxSubAccounts: 100_000,
 *   received: 100_000,
 *   pages: 501,
 *   reason: "TooMany"
 * }
 * assert.ok(BrokerError.message(failure).includes("more than maxSubAccounts (100000) distinct sub-accounts"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountListTooLong {
  readonly _tag: "SubAccountListTooLong"
  readonly request: RequestContext
  readonly maxSubAccounts: number
  readonly received: number
  readonly pages: number
  readonly reason: "TooMany" | "NothingNew" | "PageLimit"
}

/**
 * Every failure a broker call can end with.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failures: ReadonlyArray<BrokerError.BrokerError> = [
 *   { _tag: "ServerError", request: { endpoint: "transferHistory" }, status: 502, attempts: 1 },
 *   { _tag: "ApiError", request: { endpoint: "transferHistory" }, status: 400, code: 700004, msg: "Mandatory parameter" }
 * ]
 * assert.deepStrictEqual(failures.map(BrokerError.isRetryable), [true, false])
 * ```
 *
 * @since 0.2.0
 * @category models
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
 * The fields of a failure without its tag: what each line's error class of that tag is made of.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * assert.deepStrictEqual(
 *   BrokerError.fieldsOf({ _tag: "ServerError", request: { endpoint: "transferHistory" }, status: 503, attempts: 1 }),
 *   { request: { endpoint: "transferHistory" }, status: 503, attempts: 1 }
 * )
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const fieldsOf = <F extends { readonly _tag: string }>(failure: F): Omit<F, "_tag"> => {
  const { _tag: _, ...fields } = failure
  return fields
}

/**
 * A request as messages name it: the endpoint, then its window and page when it has them.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * assert.strictEqual(BrokerError.describeRequest({ endpoint: "transferHistory" }), "transferHistory")
 * assert.strictEqual(BrokerError.describeRequest({ endpoint: "transferHistory", endTime: 0 }), "transferHistory (window *..1970-01-01T00:00:00.000Z)")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const describeRequest = (c: RequestContext): string => {
  const parts: Array<string> = []
  if (c.startTime !== undefined || c.endTime !== undefined) {
    parts.push(`window ${stamp(c.startTime)}..${stamp(c.endTime)}`)
  }
  if (c.page !== undefined) parts.push(`page ${c.page}`)
  return parts.length === 0 ? c.endpoint : `${c.endpoint} (${parts.join(", ")})`
}

const stamp = (ms: number | undefined): string => ms === undefined ? "*" : new Date(ms).toISOString()

/**
 * A wait in days, hours, minutes and seconds (rounded up to whole seconds), as Effect's
 * `Duration.format` writes whole seconds; under a second, in ms.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * assert.strictEqual(BrokerError.waitText(100_000_000), "1d 3h 46m 40s")
 * assert.strictEqual(BrokerError.waitText(60_000), "1m")
 * assert.strictEqual(BrokerError.waitText(250), "250ms")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const waitText = (millis: number): string => {
  if (millis < 1000) return `${millis}ms`
  let seconds = Math.ceil(millis / 1000)
  const parts: Array<string> = []
  for (const [unit, size] of [["d", 86_400], ["h", 3_600], ["m", 60]] as const) {
    if (seconds >= size) parts.push(`${Math.floor(seconds / size)}${unit}`)
    seconds %= size
  }
  if (seconds > 0) parts.push(`${seconds}s`)
  return parts.join(" ")
}

// The name of a setting in a message: as the layer was configured, or the option.
const nameOf = (given: Names | undefined, setting: string, option: string): string => given?.[setting] ?? option

const attemptsText = (n: number): string => n === 1 ? "1 attempt" : `${n} attempts`

/**
 * The message of a failure: what went wrong, and what to do about it, naming the settings to check
 * or raise as `names` gives them.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * const failure: BrokerError.TransportError = {
 *   _tag: "TransportError",
 *   request: { endpoint: "transferHistory" },
 *   reason: "Redirect",
 *   description: "the service answered 301 redirecting to https://www.example.com/",
 *   attempts: 1,
 *   names: { baseUrl: "baseUrl (from BROKER_BASE_URL)" }
 * }
 * assert.ok(BrokerError.message(failure).includes("check baseUrl (from BROKER_BASE_URL), which must be the service's API address itself"))
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const message = (failure: BrokerError): string => {
  switch (failure._tag) {
    case "InvalidQuery":
      return `Invalid ${failure.endpoint} query: ${failure.parameter} ${failure.rule}. Nothing was sent; ${
        failure.fix ?? `fix ${failure.parameter}`
      }.`
    case "AuthenticationError": {
      const advice = failure.reason === "ApiKey"
        ? `check the API key, ${nameOf(failure.names, "apiKey", "apiKey")}: the service does not know this key`
        : failure.reason === "Signature"
        ? `check the secret key, ${
          nameOf(failure.names, "secretKey", "secretKey")
        }: it must be the secret of this API key`
        : failure.request.endpoint === "subAccountList"
        ? "give the API key a history permission (SPOT_TRANSFER_READ, which the transfer streams need too)"
        : "give the API key the permission this endpoint needs (SPOT_TRANSFER_READ for transfers, SPOT_DEPOSIT_READ for deposits)"
      return `${
        describeRequest(failure.request)
      } was refused (${failure.status} ${failure.code} ${failure.msg}): ${advice}.`
    }
    case "TimestampRejected":
      return `${
        describeRequest(failure.request)
      } was refused: the request timestamp is outside the receive window (${failure.code} ${failure.msg}) even after resynchronising with the server clock; check the machine clock or raise ${
        nameOf(failure.names, "recvWindow", "recvWindow")
      } (max 60000).`
    case "RateLimited":
      if (failure.maxRetryAfterMillis !== undefined) {
        return `${
          describeRequest(failure.request)
        } was rate limited (${failure.status} ${failure.msg}): the service asked to wait ${
          waitText(failure.retryAfterMillis)
        }, longer than the ${waitText(failure.maxRetryAfterMillis)} the client waits, so it gave up at once after ${
          attemptsText(failure.attempts)
        }; try again later, or raise ${
          nameOf(failure.names, "maxRetryAfter", "retry.maxRetryAfter")
        } to wait that long.`
      }
      return `${
        describeRequest(failure.request)
      } was rate limited (${failure.status} ${failure.msg}, retry after ${failure.retryAfterMillis} ms) after ${
        attemptsText(failure.attempts)
      }; lower the client's rate-limit budget, ${
        nameOf(failure.names, "rateLimit", "rateLimit.limit")
      }, or run fewer streams at once.`
    case "ServerError": {
      const body = failure.code === undefined ? "" : ` ${failure.code} ${failure.msg ?? ""}`
      return `${describeRequest(failure.request)} failed with a server error (${failure.status}${body}) after ${
        attemptsText(failure.attempts)
      }; the service is having trouble, try again later.`
    }
    case "ApiError": {
      const refused = `${
        describeRequest(failure.request)
      } was refused by the service (${failure.status} ${failure.code} ${failure.msg})`
      const window = failure.window
      if (window === undefined) return `${refused}; change the request as the message says.`
      const why = window.refused > window.accepted
        ? `the service refuses windows of ${waitText(window.refused)} as too wide even after narrowing` +
          (window.accepted > 0 ? ` (it accepted ${waitText(window.accepted)})` : "")
        : `the service refused a window of ${waitText(window.refused)} as too wide after accepting one of ${
          waitText(window.accepted)
        }: it holds to no one maximum`
      return `${refused}: ${why}; set ${window.setting} to a window it always accepts.`
    }
    case "TransportError": {
      const baseUrl = nameOf(failure.names, "baseUrl", "baseUrl")
      if (failure.reason === "Redirect") {
        return `${describeRequest(failure.request)} was redirected (${failure.description}); the client does not ` +
          `follow redirects: check ${baseUrl}, which must be the service's API address itself.`
      }
      return `${describeRequest(failure.request)} did not complete (${failure.reason}: ${failure.description}) after ${
        attemptsText(failure.attempts)
      }; check the network and ${baseUrl}, or raise ${nameOf(failure.names, "requestTimeout", "requestTimeout")}.`
    }
    case "ResponseDecodeError": {
      const baseUrl = nameOf(failure.names, "baseUrl", "baseUrl")
      if (failure.reason === "TooLarge") {
        return `${
          describeRequest(failure.request)
        } returned a body too large to read (TooLarge: ${failure.description}); ` +
          `raise ${
            nameOf(failure.names, "maxResponseBytes", "maxResponseBytes")
          } if the service's pages are that large, ` +
          `otherwise check ${baseUrl}.`
      }
      if (failure.reason === "OutsideQuery") {
        return `${
          describeRequest(failure.request)
        } returned a record the query did not ask for (OutsideQuery: ${failure.description}); ` +
          "the service ignored the query's window or filters, so nothing it sent can be taken as the history asked " +
          `for: check ${baseUrl}, or report it to the service with this record: ${failure.excerpt}.`
      }
      return `${
        describeRequest(failure.request)
      } returned an answer that could not be read (${failure.reason}: ${failure.description}); body starts: ${
        JSON.stringify(failure.excerpt)
      }. If the service changed its format, report it with this excerpt.`
    }
    case "IncompleteHistory": {
      const next = failure.pages + 1
      const how = failure.reason === "PageLimit"
        ? `and more pages than maxPagesPerMillisecond (${failure.pages}) allows`
        : failure.reason === "EmptyPage"
        ? `then page ${next} came back empty`
        : `then page ${next} brought no record not already read (the service caps or ignores page)`
      const advice = failure.reason === "PageLimit"
        ? `raise ${nameOf(failure.names, "maxPagesPerMillisecond", "maxPagesPerMillisecond")}`
        : "the service does not page through this millisecond; report it to the service"
      return `${describeRequest(failure.request)}: the millisecond ${
        new Date(failure.time).toISOString()
      } holds more records than were served: ${failure.received} records in ${failure.pages} pages, ${how}. Records of that millisecond may be missing; ${advice}, or set ${
        nameOf(failure.names, "onIncomplete", "onIncomplete")
      } to "warn" to go on without them.`
    }
    case "SubAccountListTooLong": {
      const read = `${failure.received} distinct sub-accounts in ${failure.pages} ${
        failure.pages === 1 ? "page" : "pages"
      }`
      const what = failure.reason === "TooMany"
        ? `the service listed more than maxSubAccounts (${failure.maxSubAccounts}) distinct sub-accounts (${read} so far)`
        : failure.reason === "NothingNew"
        ? `page ${failure.pages} was full of sub-accounts already read (${read}): the service ignores page`
        : `page ${failure.pages} was still full, more full pages than maxSubAccounts (${failure.maxSubAccounts}) names fill (${read}): the list does not end`
      const advice = failure.reason === "TooMany"
        ? "raise maxSubAccounts if the broker has that many sub-accounts, otherwise report it to the service"
        : "report it to the service"
      return `${describeRequest(failure.request)}: ${what}; ${advice}.`
    }
  }
}

/**
 * True for failures worth another attempt: 5xx, 429/418, transport failures and damaged (non-JSON)
 * bodies. 4xx refusals, redirects, unexpected shapes and bodies over `maxResponseBytes` are final.
 *
 * @example
 * ```ts
 * import * as BrokerError from "@broker-history/core/error/BrokerError"
 *
 * assert.strictEqual(BrokerError.isRetryable({ _tag: "TransportError", request: { endpoint: "x" }, reason: "Redirect", description: "", attempts: 1 }), false)
 * assert.strictEqual(BrokerError.isRetryable({ _tag: "TransportError", request: { endpoint: "x" }, reason: "Timeout", description: "", attempts: 1 }), true)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isRetryable = (failure: BrokerError): boolean => {
  switch (failure._tag) {
    case "ServerError":
    case "RateLimited":
      return true
    case "TransportError":
      return failure.reason !== "Redirect"
    case "ResponseDecodeError":
      return failure.reason === "InvalidJson"
    default:
      return false
  }
}
