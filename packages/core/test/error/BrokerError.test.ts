import { describe, expect, it } from "vitest"
import * as BrokerError from "../../src/error/BrokerError.js"

const request: BrokerError.RequestContext = {
  endpoint: "transferHistory",
  startTime: 1735689600000,
  endTime: 1736553599999,
  page: 2
}
const sub: BrokerError.RequestContext = { endpoint: "subAccountList" }

// Every message, byte for byte: both lines' error classes give these.
const messages: ReadonlyArray<readonly [string, BrokerError.BrokerError, string]> = [
  [
    "InvalidQuery",
    { _tag: "InvalidQuery", endpoint: "transferHistory", parameter: "limit", rule: "must be an integer from 1 to 500" },
    "Invalid transferHistory query: limit must be an integer from 1 to 500. Nothing was sent; fix limit."
  ],
  [
    "InvalidQuery, with a fix",
    {
      _tag: "InvalidQuery",
      endpoint: "depositHistory",
      parameter: "pageSize",
      rule: "is not an option of this stream",
      fix: "remove it (the options: coin, status)"
    },
    "Invalid depositHistory query: pageSize is not an option of this stream. Nothing was sent; remove it (the options: coin, status)."
  ],
  [
    "AuthenticationError, ApiKey",
    { _tag: "AuthenticationError", request, status: 401, code: 700001, msg: "Api key info invalid", reason: "ApiKey" },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused (401 700001 Api key info invalid): check the API key, apiKey: the service does not know this key."
  ],
  [
    "AuthenticationError, Signature, named from the environment",
    {
      _tag: "AuthenticationError",
      request,
      status: 400,
      code: 700002,
      msg: "Signature for this request is not valid.",
      reason: "Signature",
      names: { secretKey: "secretKey (from BROKER_SECRET_KEY)" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused (400 700002 Signature for this request is not valid.): check the secret key, secretKey (from BROKER_SECRET_KEY): it must be the secret of this API key."
  ],
  [
    "AuthenticationError, Permission",
    { _tag: "AuthenticationError", request, status: 403, code: 700007, msg: "No permission", reason: "Permission" },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused (403 700007 No permission): give the API key the permission this endpoint needs (SPOT_TRANSFER_READ for transfers, SPOT_DEPOSIT_READ for deposits)."
  ],
  [
    "AuthenticationError, Permission of the sub-account list",
    {
      _tag: "AuthenticationError",
      request: sub,
      status: 403,
      code: 700007,
      msg: "No permission",
      reason: "Permission"
    },
    "subAccountList was refused (403 700007 No permission): give the API key a history permission (SPOT_TRANSFER_READ, which the transfer streams need too)."
  ],
  [
    "TimestampRejected",
    {
      _tag: "TimestampRejected",
      request,
      status: 400,
      code: 700003,
      msg: "Timestamp for this request is outside of the recvWindow."
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused: the request timestamp is outside the receive window (700003 Timestamp for this request is outside of the recvWindow.) even after resynchronising with the server clock; check the machine clock or raise recvWindow (max 60000)."
  ],
  [
    "RateLimited",
    {
      _tag: "RateLimited",
      request,
      status: 429,
      code: 429,
      msg: "Too many requests.",
      retryAfterMillis: 1000,
      attempts: 6
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was rate limited (429 Too many requests., retry after 1000 ms) after 6 attempts; lower the client's rate-limit budget, rateLimit.limit, or run fewer streams at once."
  ],
  [
    "RateLimited, one attempt, named",
    {
      _tag: "RateLimited",
      request,
      status: 429,
      code: 429,
      msg: "Too many requests.",
      retryAfterMillis: 0,
      attempts: 1,
      names: { rateLimit: "rateLimit.limit (from BROKER_RATE_LIMIT)" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was rate limited (429 Too many requests., retry after 0 ms) after 1 attempt; lower the client's rate-limit budget, rateLimit.limit (from BROKER_RATE_LIMIT), or run fewer streams at once."
  ],
  [
    "RateLimited beyond maxRetryAfter",
    {
      _tag: "RateLimited",
      request,
      status: 418,
      code: 418,
      msg: "banned",
      retryAfterMillis: 100_000_000,
      maxRetryAfterMillis: 60_000,
      attempts: 1
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was rate limited (418 banned): the service asked to wait 1d 3h 46m 40s, longer than the 1m the client waits, so it gave up at once after 1 attempt; try again later, or raise retry.maxRetryAfter to wait that long."
  ],
  [
    "ServerError",
    { _tag: "ServerError", request: sub, status: 503, attempts: 6 },
    "subAccountList failed with a server error (503) after 6 attempts; the service is having trouble, try again later."
  ],
  [
    "ServerError with a body",
    { _tag: "ServerError", request: sub, status: 500, code: 1, msg: "boom", attempts: 1 },
    "subAccountList failed with a server error (500 1 boom) after 1 attempt; the service is having trouble, try again later."
  ],
  [
    "ApiError",
    { _tag: "ApiError", request, status: 400, code: 33333, msg: "Param is error" },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused by the service (400 33333 Param is error); change the request as the message says."
  ],
  [
    "ApiError, a window refused even at the floor",
    {
      _tag: "ApiError",
      request,
      status: 400,
      code: 33333,
      msg: "too wide",
      window: { refused: 60_000, accepted: 0, setting: "maxWindow.transfers" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused by the service (400 33333 too wide): the service refuses windows of 1m as too wide even after narrowing; set maxWindow.transfers to a window it always accepts."
  ],
  [
    "ApiError, a window refused after a narrower one was accepted",
    {
      _tag: "ApiError",
      request,
      status: 400,
      code: 33333,
      msg: "too wide",
      window: { refused: 3_600_000, accepted: 60_000, setting: "maxWindow.transfers" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused by the service (400 33333 too wide): the service refuses windows of 1h as too wide even after narrowing (it accepted 1m); set maxWindow.transfers to a window it always accepts."
  ],
  [
    "ApiError, a window refused after a wider one was accepted",
    {
      _tag: "ApiError",
      request,
      status: 400,
      code: 33333,
      msg: "too wide",
      window: { refused: 60_000, accepted: 86_400_000, setting: "maxWindow.deposits" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was refused by the service (400 33333 too wide): the service refused a window of 1m as too wide after accepting one of 1d: it holds to no one maximum; set maxWindow.deposits to a window it always accepts."
  ],
  [
    "TransportError",
    { _tag: "TransportError", request, reason: "Timeout", description: "no answer within 10s", attempts: 6 },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) did not complete (Timeout: no answer within 10s) after 6 attempts; check the network and baseUrl, or raise requestTimeout."
  ],
  [
    "TransportError, Redirect",
    {
      _tag: "TransportError",
      request,
      reason: "Redirect",
      description: "the service answered 301 without a Location",
      attempts: 1,
      names: { baseUrl: "baseUrl (from BROKER_BASE_URL)" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) was redirected (the service answered 301 without a Location); the client does not follow redirects: check baseUrl (from BROKER_BASE_URL), which must be the service's API address itself."
  ],
  [
    "ResponseDecodeError, UnexpectedShape",
    {
      _tag: "ResponseDecodeError",
      request,
      status: 200,
      reason: "UnexpectedShape",
      description: "[0].amount: expected decimal text",
      excerpt: "[{\"amount\":1}]",
      attempts: 1
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) returned an answer that could not be read (UnexpectedShape: [0].amount: expected decimal text); body starts: \"[{\\\"amount\\\":1}]\". If the service changed its format, report it with this excerpt."
  ],
  [
    "ResponseDecodeError, TooLarge",
    {
      _tag: "ResponseDecodeError",
      request,
      status: 200,
      reason: "TooLarge",
      description: "Content-Length 2048 is more than maxResponseBytes (1024 bytes); nothing was read",
      excerpt: "",
      attempts: 1
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) returned a body too large to read (TooLarge: Content-Length 2048 is more than maxResponseBytes (1024 bytes); nothing was read); raise maxResponseBytes if the service's pages are that large, otherwise check baseUrl."
  ],
  [
    "ResponseDecodeError, OutsideQuery",
    {
      _tag: "ResponseDecodeError",
      request,
      status: 200,
      reason: "OutsideQuery",
      description: "record 0 is at 5, before the window",
      excerpt: "{\"tranId\":\"1\"}",
      attempts: 1
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2) returned a record the query did not ask for (OutsideQuery: record 0 is at 5, before the window); the service ignored the query's window or filters, so nothing it sent can be taken as the history asked for: check baseUrl, or report it to the service with this record: {\"tranId\":\"1\"}."
  ],
  [
    "IncompleteHistory, PageLimit",
    { _tag: "IncompleteHistory", request, time: 1767225600000, received: 10000, pages: 20, reason: "PageLimit" },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2): the millisecond 2026-01-01T00:00:00.000Z holds more records than were served: 10000 records in 20 pages, and more pages than maxPagesPerMillisecond (20) allows. Records of that millisecond may be missing; raise maxPagesPerMillisecond, or set onIncomplete to \"warn\" to go on without them."
  ],
  [
    "IncompleteHistory, EmptyPage",
    { _tag: "IncompleteHistory", request, time: 1767225600000, received: 1000, pages: 2, reason: "EmptyPage" },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2): the millisecond 2026-01-01T00:00:00.000Z holds more records than were served: 1000 records in 2 pages, then page 3 came back empty. Records of that millisecond may be missing; the service does not page through this millisecond; report it to the service, or set onIncomplete to \"warn\" to go on without them."
  ],
  [
    "IncompleteHistory, NothingNew, named",
    {
      _tag: "IncompleteHistory",
      request,
      time: 1767225600000,
      received: 1000,
      pages: 2,
      reason: "NothingNew",
      names: { onIncomplete: "onIncomplete (from BROKER_ON_INCOMPLETE)" }
    },
    "transferHistory (window 2025-01-01T00:00:00.000Z..2025-01-10T23:59:59.999Z, page 2): the millisecond 2026-01-01T00:00:00.000Z holds more records than were served: 1000 records in 2 pages, then page 3 brought no record not already read (the service caps or ignores page). Records of that millisecond may be missing; the service does not page through this millisecond; report it to the service, or set onIncomplete (from BROKER_ON_INCOMPLETE) to \"warn\" to go on without them."
  ],
  [
    "SubAccountListTooLong, TooMany",
    {
      _tag: "SubAccountListTooLong",
      request: sub,
      maxSubAccounts: 100_000,
      received: 100_000,
      pages: 501,
      reason: "TooMany"
    },
    "subAccountList: the service listed more than maxSubAccounts (100000) distinct sub-accounts (100000 distinct sub-accounts in 501 pages so far); raise maxSubAccounts if the broker has that many sub-accounts, otherwise report it to the service."
  ],
  [
    "SubAccountListTooLong, NothingNew",
    {
      _tag: "SubAccountListTooLong",
      request: sub,
      maxSubAccounts: 100_000,
      received: 200,
      pages: 2,
      reason: "NothingNew"
    },
    "subAccountList: page 2 was full of sub-accounts already read (200 distinct sub-accounts in 2 pages): the service ignores page; report it to the service."
  ],
  [
    "SubAccountListTooLong, PageLimit, one page",
    { _tag: "SubAccountListTooLong", request: sub, maxSubAccounts: 1, received: 1, pages: 1, reason: "PageLimit" },
    "subAccountList: page 1 was still full, more full pages than maxSubAccounts (1) names fill (1 distinct sub-accounts in 1 page): the list does not end; report it to the service."
  ]
]

describe("BrokerError.message", () => {
  it.each(messages)("%s", (_, failure, expected) => {
    expect(BrokerError.message(failure)).toBe(expected)
  })

  it("a request is named by its endpoint, then its window (* for a missing bound) and page", () => {
    expect(BrokerError.describeRequest({ endpoint: "depositHistory" })).toBe("depositHistory")
    expect(BrokerError.describeRequest({ endpoint: "depositHistory", page: 3 })).toBe("depositHistory (page 3)")
    expect(BrokerError.describeRequest({ endpoint: "depositHistory", startTime: 0 })).toBe(
      "depositHistory (window 1970-01-01T00:00:00.000Z..*)"
    )
  })

  it("waits read as Effect's durations do: d h m s, rounded up to whole seconds; ms under a second", () => {
    expect([0, 999, 1000, 1001, 60_000, 3_661_000, 86_400_000, 100_000_000].map(BrokerError.waitText)).toEqual([
      "0ms",
      "999ms",
      "1s",
      "2s",
      "1m",
      "1h 1m 1s",
      "1d",
      "1d 3h 46m 40s"
    ])
  })
})

describe("BrokerError.isRetryable", () => {
  it("5xx, 429/418, transport failures but redirects, and damaged bodies are worth another attempt", () => {
    const retryable = messages.filter(([, failure]) => BrokerError.isRetryable(failure)).map(([name]) => name)
    expect(retryable).toEqual([
      "RateLimited",
      "RateLimited, one attempt, named",
      "RateLimited beyond maxRetryAfter",
      "ServerError",
      "ServerError with a body",
      "TransportError"
    ])
    expect(
      BrokerError.isRetryable({
        _tag: "ResponseDecodeError",
        request,
        status: 200,
        reason: "InvalidJson",
        description: "",
        excerpt: "",
        attempts: 1
      })
    ).toBe(true)
  })
})
