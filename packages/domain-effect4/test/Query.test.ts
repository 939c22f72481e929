// The query modules' own parts: the order parameters are sent in, text read strictly, plain objects
// back. Which rule a query breaks is the Effect 3 line's (SameAsV3.test.ts); the accept-check is
// held to the schemas in QueryAccepts.test.ts.
import { DepositHistoryQuery, SubAccountListQuery, TransferHistoryQuery } from "@broker-history/domain-effect4"
import type { QueryViolation } from "@broker-history/domain-effect4"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" }

describe("query parameters on the wire", () => {
  it("in the exchange's documented order, each value as text, only those given", () => {
    const clientTranId = "a".repeat(16) + "B1".repeat(8)
    const transfers = {
      ...base,
      clientTranId,
      fromAccount: "a",
      toAccount: "b",
      startTime: 1,
      endTime: 2,
      page: 3,
      limit: 5
    }
    expect(TransferHistoryQuery.toParams(transfers)).toEqual([
      ["clientTranId", clientTranId],
      ["fromAccount", "a"],
      ["toAccount", "b"],
      ["fromAccountType", "SPOT"],
      ["toAccountType", "FUTURES"],
      ["startTime", "1"],
      ["endTime", "2"],
      ["page", "3"],
      ["limit", "5"]
    ])
    expect(TransferHistoryQuery.toParams(base)).toEqual([["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]])
    expect(DepositHistoryQuery.toParams({ page: 1, limit: 20, endTime: 2, startTime: 1, status: "5", coin: "USDT" }))
      .toEqual([["coin", "USDT"], ["status", "5"], ["startTime", "1"], ["endTime", "2"], ["limit", "20"], [
        "page",
        "1"
      ]])
    expect(SubAccountListQuery.toParams({ limit: 200, page: 2, subAccount: "mexc1" })).toEqual([
      ["subAccount", "mexc1"],
      ["page", "2"],
      ["limit", "200"]
    ])
  })
})

describe("fromText", () => {
  it("reads integer parameters from base-10 integer text only", () => {
    expect(TransferHistoryQuery.fromText({ ...base, page: "2", limit: "500" })).toEqual(
      Result.succeed({ ...base, page: 2, limit: 500 })
    )
    for (const bad of ["-1", "1.0", "01", "1e3", "", " 1", "99999999999999999999"]) {
      expect(TransferHistoryQuery.fromText({ ...base, page: bad })).toEqual(
        Result.fail({ parameter: "page", rule: "must be base-10 integer text", kind: "invalid" })
      )
    }
  })

  it("a parameter named __proto__ is a parameter (refused as unknown), not the prototype", () => {
    const hostile = JSON.parse("{\"fromAccountType\":\"SPOT\",\"toAccountType\":\"FUTURES\",\"__proto__\":\"x\"}")
    expect(TransferHistoryQuery.fromText(hostile)).toEqual(
      Result.fail({ parameter: "__proto__", rule: "is not a parameter of this endpoint", kind: "invalid" })
    )
  })

  it("returns plain objects, like any decoded query (the text is read into a null-prototype object)", () => {
    const reads: ReadonlyArray<Result.Result<object, QueryViolation.QueryViolation>> = [
      TransferHistoryQuery.fromText({ ...base, page: "2" }),
      DepositHistoryQuery.fromText({ coin: "USDT", limit: "20" }),
      DepositHistoryQuery.fromText({})
    ]
    for (const read of reads) {
      const query = Result.getOrThrow(read)
      expect(Object.getPrototypeOf(query)).toBe(Object.prototype)
      expect(String(query)).toBe("[object Object]")
    }
    expect(Result.getOrThrow(reads[0]!)).toStrictEqual({ ...base, page: 2 })
  })
})
