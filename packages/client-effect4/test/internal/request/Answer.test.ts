import { Result, Schema, SchemaParser } from "effect"
import * as Answer from "../../../src/internal/request/Answer.js"
import { describe, expect, it } from "../../support/EffectTest.js"

const ctx = { endpoint: "transferHistory" }
const now = Date.parse("2026-01-01T00:00:00Z")

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
})

describe("Answer.refusal of a redirect", () => {
  const refused = (status: number) => ({ _tag: "Refused", status, code: undefined, msg: "" }) as const
  const reply = (status: number, location?: string) => ({ status, retryAfter: undefined, location, body: "" })

  it("names the status and the Location without its query, credentials or control characters", () => {
    const error = Answer.refusal(
      ctx,
      refused(301),
      reply(301, "https://user:pw@api.example.com/api/v3/x\u001b[2J?timestamp=1&signature=abc#f"),
      now,
      1,
      60_000
    )
    expect(error).toMatchObject({
      _tag: "TransportError",
      reason: "Redirect",
      description: "the service answered 301 redirecting to https://api.example.com/api/v3/x\uFFFD[2J?…"
    })
  })

  it("a 3xx without a Location, and status 0 (a browser's manual redirect), are redirects too", () => {
    expect(Answer.refusal(ctx, refused(302), reply(302), now, 1, 60_000)).toMatchObject({
      reason: "Redirect",
      description: "the service answered 302 without a Location"
    })
    expect(Answer.refusal(ctx, refused(0), reply(0), now, 1, 60_000)).toMatchObject({ reason: "Redirect" })
  })
})

describe("Answer.read of an envelope ({code, message, data})", () => {
  const list = { endpoint: "subAccountList" }
  const reply = (status: number, body: unknown) => ({ status, retryAfter: undefined, body: JSON.stringify(body) })
  const decodeArray = SchemaParser.decodeUnknownResult(Schema.Array(Schema.Unknown))

  it("a code other than 0 is the refusal it states, with 2xx or another status", () => {
    expect(Answer.read(list, reply(200, { code: "700001", message: "bad key", data: null }), decodeArray, 1))
      .toEqual(Result.fail({ _tag: "Refused", status: 200, code: 700001, msg: "bad key" }))
    expect(Answer.read(list, reply(403, { code: 700007, message: "no permission" }), decodeArray, 1))
      .toEqual(Result.fail({ _tag: "Refused", status: 403, code: 700007, msg: "no permission" }))
  })

  it("code 0 with data of the wrong shape is UnexpectedShape; a bare {code} keeps the status's meaning", () => {
    expect(Answer.read(list, reply(200, { code: "0", message: "", data: null }), decodeArray, 1)).toMatchObject(
      Result.fail({ _tag: "ResponseDecodeError", reason: "UnexpectedShape" })
    )
    expect(Answer.read(list, reply(401, { code: 401 }), decodeArray, 1)).toMatchObject(
      Result.fail({ _tag: "Refused", status: 401, code: undefined })
    )
  })
})
