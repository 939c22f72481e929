import { Endpoint, ErrorBody, SubAccount, SubAccountListQuery } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"

const decodePage = Schema.decodeUnknownEither(SubAccount.SubAccountPage)

const documented = { subAccount: "mexc1", note: "1", timestamp: "1597026383085" }
const mexc1 = { subAccount: "mexc1", note: "1", timestamp: 1597026383085 }

const failure = (u: unknown): string => {
  const result = decodePage(u)
  if (Either.isRight(result)) throw new Error(`decoded ${JSON.stringify(u)}`)
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

describe("SubAccount.SubAccountPage", () => {
  it("reads the documented envelope", () => {
    expect(decodePage({ code: "0", message: "", data: [documented] })).toEqual(Either.right([mexc1]))
    expect(decodePage({ code: 0, message: "", data: [documented] })).toEqual(Either.right([mexc1]))
    expect(decodePage({ data: [documented] })).toEqual(Either.right([mexc1]))
    expect(decodePage({ code: "0", message: "", data: [] })).toEqual(Either.right([]))
  })

  it("reads a bare array of the records", () => {
    expect(decodePage([documented])).toEqual(Either.right([mexc1]))
    expect(decodePage([])).toEqual(Either.right([]))
  })

  it("reads the creation time from text or a number; none from null, \"\" or a missing field", () => {
    const times = [
      { ...documented, timestamp: "1597026383085" },
      { ...documented, timestamp: 1597026383085 },
      { ...documented, timestamp: null },
      { ...documented, timestamp: "" },
      { subAccount: "mexc1", note: "1" }
    ]
    expect(Either.map(decodePage(times), (page) => page.map((s) => s.timestamp))).toEqual(
      Either.right([1597026383085, 1597026383085, undefined, undefined, undefined])
    )
  })

  it("reads a null or missing note as \"\" and ignores unknown fields", () => {
    expect(decodePage([{ subAccount: "a", note: null, timestamp: 1, status: "ACTIVE" }, { subAccount: "b" }]))
      .toEqual(Either.right([
        { subAccount: "a", note: "", timestamp: 1 },
        { subAccount: "b", note: "", timestamp: undefined }
      ]))
  })

  it.each([
    ["a code other than 0", { code: "700001", message: "API-key format invalid." }, "code"],
    ["no data", { code: "0", message: "" }, "data"],
    ["null data", { code: "0", message: "", data: null }, "data"],
    ["data an object", { code: "0", data: { subAccount: "a" } }, "data"],
    ["a record without a name", [{ note: "", timestamp: 1 }], "subAccount"],
    ["an empty name", [{ subAccount: "", timestamp: 1 }], "subAccount"],
    ["a name with surrounding spaces", [{ subAccount: "a ", timestamp: 1 }], "subAccount"],
    ["a name too long", [{ subAccount: "a".repeat(SubAccount.maxNameLength + 1) }], "subAccount"],
    ["a number as the name", [{ subAccount: 7 }], "subAccount"],
    ["a fractional time", [{ subAccount: "a", timestamp: "1597026383085.5" }], "timestamp"],
    ["a negative time", [{ subAccount: "a", timestamp: -1 }], "timestamp"],
    ["a note that is a number", [{ subAccount: "a", note: 5 }], "note"],
    ["a record that is text", ["a"], "0"],
    ["text", "mexc1", "sub-account list page"],
    ["null", null, "sub-account list page"]
  ])("refuses %s, naming where", (_, body, where) => {
    expect(failure(body)).toContain(where)
  })

  it("encodes to the documented envelope", () => {
    expect(Schema.encodeSync(SubAccount.SubAccountPage)([mexc1])).toEqual({
      code: "0",
      message: "",
      data: [mexc1]
    })
  })
})

describe("ErrorBody.fromEnvelope", () => {
  it("reads a refusal's code (number or text) and text (message or msg)", () => {
    expect(ErrorBody.fromEnvelope({ code: "700001", message: "bad key", data: null })).toEqual({
      code: 700001,
      msg: "bad key"
    })
    expect(ErrorBody.fromEnvelope({ code: 700007, msg: "no permission" })).toEqual({
      code: 700007,
      msg: "no permission"
    })
    expect(ErrorBody.fromEnvelope({ code: 429, message: null })).toEqual({ code: 429, msg: "" })
    expect(ErrorBody.fromEnvelope({ code: "33333", data: null })).toEqual({ code: 33333, msg: "" })
  })

  it("is undefined for a success or a body that is no envelope", () => {
    for (
      const body of [{ code: "0", message: "", data: [] }, { code: 0 }, [], "x", null, { message: "m" }, { code: 401 }]
    ) {
      expect(ErrorBody.fromEnvelope(body)).toBeUndefined()
    }
    expect(ErrorBody.fromEnvelope({ code: "7e5", message: "m" })).toBeUndefined()
    expect(ErrorBody.fromEnvelope({ code: 1.5, message: "m" })).toBeUndefined()
    expect(ErrorBody.fromEnvelope({ code: 700001, message: 5 })).toBeUndefined()
  })
})

describe("SubAccountListQuery", () => {
  it("accepts every documented parameter and sends them in order", () => {
    const query = { limit: 200, page: 2, subAccount: "mexc1" }
    expect(SubAccountListQuery.validate(query)).toEqual(Either.right(query))
    expect(SubAccountListQuery.toParams(query)).toEqual([["subAccount", "mexc1"], ["page", "2"], ["limit", "200"]])
    expect(SubAccountListQuery.validate({})).toEqual(Either.right({}))
  })

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: Endpoint.subAccountList.maxLimit + 1 }, "limit"],
    [{ page: 0 }, "page"],
    [{ page: 1.5 }, "page"],
    [{ subAccount: "" }, "subAccount"],
    [{ subAccount: " a" }, "subAccount"],
    [{ coin: "USDT" }, "coin"]
  ])("refuses %j, naming %s", (query, parameter) => {
    expect(Either.getLeft(SubAccountListQuery.validate(query)).pipe((v) => v._tag === "Some" && v.value.parameter))
      .toBe(parameter)
  })

  it("the endpoint's limits are the query's", () => {
    expect(Endpoint.subAccountList).toMatchObject({ defaultLimit: 10, maxLimit: 200, name: "subAccountList" })
  })
})
