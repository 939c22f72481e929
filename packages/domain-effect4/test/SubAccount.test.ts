import { Endpoint, SubAccount, SubAccountListQuery } from "@broker-history/domain-effect4"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"

const decodePage = Schema.decodeUnknownResult(SubAccount.SubAccountPage)

const documented = { subAccount: "mexc1", note: "1", timestamp: "1597026383085" }
const mexc1 = { subAccount: "mexc1", note: "1", timestamp: 1597026383085 }

const failure = (u: unknown): string => {
  const result = decodePage(u)
  if (Result.isSuccess(result)) throw new Error(`decoded ${JSON.stringify(u)}`)
  return result.failure.message
}

describe("SubAccount.SubAccountPage", () => {
  it("reads the documented envelope", () => {
    expect(decodePage({ code: "0", message: "", data: [documented] })).toEqual(Result.succeed([mexc1]))
    expect(decodePage({ code: 0, message: "", data: [documented] })).toEqual(Result.succeed([mexc1]))
    expect(decodePage({ code: "000", message: null, data: [documented] })).toEqual(Result.succeed([mexc1]))
    expect(decodePage({ data: [documented] })).toEqual(Result.succeed([mexc1]))
    expect(decodePage({ code: "0", message: "", data: [] })).toEqual(Result.succeed([]))
  })

  it("reads a bare array of the records", () => {
    expect(decodePage([documented])).toEqual(Result.succeed([mexc1]))
    expect(decodePage([])).toEqual(Result.succeed([]))
  })

  it("reads the creation time from text or a number; none from null, \"\" or a missing field", () => {
    const times = [
      { ...documented, timestamp: "1597026383085" },
      { ...documented, timestamp: 1597026383085 },
      { ...documented, timestamp: null },
      { ...documented, timestamp: "" },
      { subAccount: "mexc1", note: "1" }
    ]
    expect(Result.map(decodePage(times), (page) => page.map((s) => s.timestamp))).toEqual(
      Result.succeed([1597026383085, 1597026383085, undefined, undefined, undefined])
    )
  })

  it("reads a null or missing note as \"\" and ignores unknown fields", () => {
    expect(decodePage([{ subAccount: "a", note: null, timestamp: 1, status: "ACTIVE" }, { subAccount: "b" }]))
      .toEqual(Result.succeed([
        { subAccount: "a", note: "", timestamp: 1 },
        { subAccount: "b", note: "", timestamp: undefined }
      ]))
  })

  it.each([
    ["a code other than 0", { code: "700001", message: "API-key format invalid." }, "[\"code\"]"],
    ["no data", { code: "0", message: "" }, "[\"data\"]"],
    ["null data", { code: "0", message: "", data: null }, "[\"data\"]"],
    ["data an object", { code: "0", data: { subAccount: "a" } }, "[\"data\"]"],
    ["a record without a name", [{ note: "", timestamp: 1 }], "[0][\"subAccount\"]"],
    ["an empty name", [{ subAccount: "", timestamp: 1 }], "[0][\"subAccount\"]"],
    ["a name with surrounding spaces", [{ subAccount: "a ", timestamp: 1 }], "[0][\"subAccount\"]"],
    ["a name too long", [{ subAccount: "a".repeat(SubAccount.maxNameLength + 1) }], "[0][\"subAccount\"]"],
    ["a number as the name", [{ subAccount: 7 }], "Expected a sub-account name"],
    ["a fractional time", [{ subAccount: "a", timestamp: "1597026383085.5" }], "[0][\"timestamp\"]"],
    ["a negative time", [{ subAccount: "a", timestamp: -1 }], "[0][\"timestamp\"]"],
    ["a note that is a number", [{ subAccount: "a", note: 5 }], "[0][\"note\"]"],
    ["a record that is text", ["a"], "[0]"],
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

describe("SubAccountListQuery", () => {
  it("accepts every documented parameter and sends them in order", () => {
    const query = { limit: 200, page: 2, subAccount: "mexc1" }
    expect(SubAccountListQuery.validate(query)).toEqual(Result.succeed(query))
    expect(SubAccountListQuery.toParams(query)).toEqual([["subAccount", "mexc1"], ["page", "2"], ["limit", "200"]])
    expect(SubAccountListQuery.validate({})).toEqual(Result.succeed({}))
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
    const result = SubAccountListQuery.validate(query)
    expect(Result.isFailure(result) && result.failure.parameter).toBe(parameter)
  })
})
