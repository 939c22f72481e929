import { describe, expect, it } from "vitest"
import * as ErrorBody from "../../src/protocol/ErrorBody.js"
import * as Answer from "../../src/request/Answer.js"

const ctx = { endpoint: "transferHistory" }
const now = Date.parse("2026-01-01T00:00:00Z")
const reply = (status: number, extra: Partial<Answer.Reply> = {}): Answer.Reply => ({
  status,
  retryAfter: undefined,
  body: "",
  ...extra
})

describe("Answer.retryAfterMillis", () => {
  it.each([
    ["7", 7000],
    [" 120 ", 120_000],
    ["0", 0],
    ["Thu, 01 Jan 2026 00:00:30 GMT", 30_000],
    ["Thursday, 01-Jan-26 00:00:30 GMT", 30_000],
    ["Thu Jan  1 00:00:30 2026", 30_000],
    ["Thu, 01 Jan 1970 00:00:00 GMT", 0],
    ["99999999999999999999999", Number.MAX_SAFE_INTEGER]
  ])("%j → %d ms", (value, millis) => {
    expect(Answer.retryAfterMillis(value, now)).toBe(millis)
  })

  it.each([["-5"], ["1.5"], ["NaN"], ["1e3"], ["soon"], [""], ["2026-01-01T00:00:30Z"]])(
    "%j is unreadable",
    (value) => {
      expect(Answer.retryAfterMillis(value, now)).toBeUndefined()
    }
  )

  it("a Content-Length is whole bytes or nothing", () => {
    expect([" 2048 ", "0", "-1", "1.5", "", undefined].map(Answer.contentLength)).toEqual([
      2048,
      0,
      undefined,
      undefined,
      undefined,
      undefined
    ])
  })
})

describe("Answer.refusal of a redirect", () => {
  const refused = (status: number) => Answer.refused(status, undefined, "")

  it("names the status and the Location without its query, credentials or control characters", () => {
    const location = "https://user:pw@api.example.com/api/v3/x\u001b[2J?timestamp=1&signature=abc#f"
    expect(Answer.refusal(ctx, refused(301), reply(301, { location }), now, 1, 60_000)).toEqual({
      _tag: "TransportError",
      request: ctx,
      reason: "Redirect",
      description: "the service answered 301 redirecting to https://api.example.com/api/v3/x\uFFFD[2J?…",
      attempts: 1
    })
  })

  it("a 3xx without a Location, and status 0 (a browser's manual redirect), are redirects too", () => {
    expect(Answer.refusal(ctx, refused(302), reply(302), now, 1, 60_000)).toMatchObject({
      reason: "Redirect",
      description: "the service answered 302 without a Location"
    })
    expect(Answer.refusal(ctx, refused(0), reply(0), now, 1, 60_000)).toMatchObject({
      reason: "Redirect",
      description: "the service answered a redirect the runtime does not show (status 0)"
    })
  })
})

describe("Answer.refusal: the error table of docs/wire-contract.md", () => {
  const classify = (r: ErrorBody.ErrorRow, retryAfter?: string) =>
    Answer.refusal(ctx, Answer.refused(r.status, r.code, r.msg), reply(r.status, { retryAfter }), now, 2, 60_000)

  it.each(
    [
      [ErrorBody.Errors.invalidApiKey, "AuthenticationError", "ApiKey"],
      [ErrorBody.Errors.badSignature, "AuthenticationError", "Signature"],
      [ErrorBody.Errors.noPermission, "AuthenticationError", "Permission"],
      [ErrorBody.Errors.timestampOutsideRecvWindow, "TimestampRejected", undefined],
      [ErrorBody.Errors.mandatoryParameter("timestamp"), "ApiError", undefined],
      [ErrorBody.Errors.recvWindowOutOfRange, "ApiError", undefined],
      [ErrorBody.Errors.invalidParameter("limit"), "ApiError", undefined]
    ] as const
  )("%j → %s", (r, tag, reason) => {
    const failure = classify(r)
    expect(failure).toMatchObject({ _tag: tag, request: ctx, status: r.status, code: r.code, msg: r.msg })
    if (reason !== undefined) expect(failure).toMatchObject({ reason })
  })

  it("429 and 418 are RateLimited, with the Retry-After asked for; beyond the longest wait, marked to fail at once", () => {
    expect(classify(ErrorBody.Errors.tooManyRequests, "3")).toEqual({
      _tag: "RateLimited",
      request: ctx,
      status: 429,
      code: 429,
      msg: "Too many requests.",
      retryAfterMillis: 3000,
      attempts: 2
    })
    expect(classify({ status: 418, code: 418, msg: "banned" }, "120")).toMatchObject({
      _tag: "RateLimited",
      retryAfterMillis: 120_000,
      maxRetryAfterMillis: 60_000
    })
    // The code says 429 under a 4xx of another number: rate limited too; an unreadable wait is 0.
    expect(classify({ status: 400, code: 429, msg: "slow down" }, "soon")).toMatchObject({
      _tag: "RateLimited",
      retryAfterMillis: 0
    })
  })

  it("5xx is a ServerError (its code when the body had one); 408 a Timeout; a 401/403 without a code is authentication", () => {
    expect(classify(ErrorBody.Errors.internal)).toEqual({
      _tag: "ServerError",
      request: ctx,
      status: 500,
      code: ErrorBody.Code.Internal,
      msg: "Internal error",
      attempts: 2
    })
    const refusal = (status: number) =>
      Answer.refusal(ctx, Answer.refused(status, undefined, "<html>"), reply(status), now, 1, 60_000)
    expect(refusal(503)).toEqual({ _tag: "ServerError", request: ctx, status: 503, msg: "<html>", attempts: 1 })
    expect(refusal(408)).toMatchObject({ _tag: "TransportError", reason: "Timeout" })
    expect(refusal(401)).toMatchObject({ _tag: "AuthenticationError", reason: "ApiKey", code: 401 })
    expect(refusal(403)).toMatchObject({ _tag: "AuthenticationError", reason: "Permission", code: 403 })
    expect(refusal(404)).toEqual({ _tag: "ApiError", request: ctx, status: 404, code: 404, msg: "<html>" })
  })
})

describe("Answer.read", () => {
  const list = { endpoint: "subAccountList" }
  const json = (status: number, body: unknown) => reply(status, { body: JSON.stringify(body) })
  const decodeArray = (u: unknown): Answer.Decoded<ReadonlyArray<unknown>> =>
    Array.isArray(u) ? { _tag: "Decoded", value: u } : { _tag: "Undecoded", describe: () => "expected an array" }
  const read = (r: Answer.Reply) => Answer.read(list, r, decodeArray, ErrorBody.fromEnvelope, 1)

  it("a code other than 0 is the refusal it states, with 2xx or another status", () => {
    expect(read(json(200, { code: "700001", message: "bad key", data: null }))).toEqual({
      _tag: "Refused",
      status: 200,
      code: 700001,
      msg: "bad key"
    })
    expect(read(json(403, { code: 700007, message: "no permission" }))).toEqual({
      _tag: "Refused",
      status: 403,
      code: 700007,
      msg: "no permission"
    })
  })

  it("code 0 with data of the wrong shape is UnexpectedShape; a bare {code} keeps the status's meaning", () => {
    expect(read(json(200, { code: "0", message: "", data: null }))).toMatchObject({
      _tag: "ResponseDecodeError",
      reason: "UnexpectedShape",
      description: "expected an array"
    })
    expect(read(json(401, { code: 401 }))).toEqual({
      _tag: "Refused",
      status: 401,
      code: undefined,
      msg: "{\"code\":401}"
    })
  })

  it("a 2xx that is not JSON is InvalidJson, with the body's start; a value is decoded", () => {
    expect(read(reply(200, { body: "<html>\n" }))).toMatchObject({
      _tag: "ResponseDecodeError",
      status: 200,
      reason: "InvalidJson",
      excerpt: "<html>\uFFFD"
    })
    expect(read(json(200, ["a"]))).toEqual({ _tag: "Decoded", value: ["a"] })
    // A body that is a refusal is not described: the description is made only for an error.
    const undescribable = (): Answer.Decoded<never> => ({
      _tag: "Undecoded",
      describe: () => {
        throw new Error("described")
      }
    })
    const refusing = json(200, { code: "700001", message: "bad key", data: null })
    expect(Answer.read(list, refusing, undescribable, ErrorBody.fromEnvelope, 1)._tag).toBe("Refused")
  })

  it("a body over the bound is TooLarge, nothing of it kept; a transport failure names no URL", () => {
    expect(Answer.tooLarge(ctx, 200, 1024, undefined, 1)).toMatchObject({
      reason: "TooLarge",
      description: "more than maxResponseBytes (1024 bytes) arrived; the rest was not read",
      excerpt: ""
    })
    const cause = new Error("fetch failed https://api.example.com/x?timestamp=1&signature=abc", {
      cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })
    })
    expect(Answer.transportCause(ctx, "Body", cause, 2, "the exchange failed", "ResponseError")).toEqual({
      _tag: "TransportError",
      request: ctx,
      reason: "Body",
      // Everything from the query on, up to a space, goes: the signature with it.
      description: "ResponseError: fetch failed https://api.example.com/x?… socket hang up ECONNRESET",
      attempts: 2
    })
    expect(Answer.transportCause(ctx, undefined, "not an error", 1).description).toBe("the exchange failed")
  })

  it("a request is named by its endpoint, window and page", () => {
    expect(
      Answer.requestContext("transferHistory", [["startTime", "1"], ["endTime", "2"], ["page", "3"], ["limit", "5"]])
    )
      .toEqual({ endpoint: "transferHistory", startTime: 1, endTime: 2, page: 3 })
  })
})
