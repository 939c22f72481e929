import type { QueryViolation } from "@broker-history/domain-effect4"
import { DepositHistoryQuery, TransferHistoryQuery } from "@broker-history/domain-effect4"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" }

const violation = (r: Result.Result<unknown, QueryViolation.QueryViolation>) =>
  Result.isFailure(r) ? r.failure : undefined

describe("TransferHistoryQuery", () => {
  it("accepts a complete valid query and sends parameters in the documented order", () => {
    const q = {
      ...base,
      clientTranId: "a".repeat(16) + "B1".repeat(8),
      fromAccount: "sub1",
      toAccount: "sub2",
      startTime: 1,
      endTime: 2,
      page: 3,
      limit: 500
    }
    expect(Result.isSuccess(TransferHistoryQuery.validate(q))).toBe(true)
    // The exchange's documented order, each value as text.
    expect(TransferHistoryQuery.toParams(q)).toEqual([
      ["clientTranId", q.clientTranId],
      ["fromAccount", "sub1"],
      ["toAccount", "sub2"],
      ["fromAccountType", "SPOT"],
      ["toAccountType", "FUTURES"],
      ["startTime", "1"],
      ["endTime", "2"],
      ["page", "3"],
      ["limit", "500"]
    ])
  })

  it.each([
    [{ toAccountType: "FUTURES" }, "fromAccountType", "missing", "is required"],
    [{ fromAccountType: "SPOT" }, "toAccountType", "missing", "is required"],
    [{ ...base, fromAccountType: "" }, "fromAccountType", "missing", "is required"],
    [{ ...base, toAccountType: 5 }, "toAccountType", "invalid", "must be text"],
    [{ ...base, fromAccount: "" }, "fromAccount", "invalid", "must not be empty (omit it to mean the master account)"],
    [{ ...base, toAccount: " sub" }, "toAccount", "invalid", "must not start or end with spaces"],
    [{ ...base, toAccount: 5 }, "toAccount", "invalid", "must be text"],
    [{ ...base, clientTranId: "short" }, "clientTranId", "invalid", "must be exactly 32 ASCII letters or digits"],
    [{ ...base, clientTranId: "a".repeat(31) + "-" }, "clientTranId", "invalid", undefined],
    [{ ...base, clientTranId: "a".repeat(33) }, "clientTranId", "invalid", undefined],
    [
      { ...base, startTime: -1 },
      "startTime",
      "invalid",
      "must be a Unix millisecond timestamp (a non-negative integer)"
    ],
    [{ ...base, startTime: 1.5 }, "startTime", "invalid", undefined],
    [{ ...base, startTime: "1" }, "startTime", "invalid", "must be a Unix millisecond timestamp"],
    [{ ...base, endTime: Number.NaN }, "endTime", "invalid", undefined],
    [{ ...base, startTime: 2, endTime: 1 }, "startTime", "invalid", "must not be after endTime"],
    [{ ...base, page: 0 }, "page", "invalid", "must be an integer >= 1"],
    [{ ...base, page: 1.5 }, "page", "invalid", "must be an integer >= 1"],
    [{ ...base, page: null }, "page", "invalid", "must be an integer >= 1"],
    [{ ...base, limit: 0 }, "limit", "invalid", "must be an integer from 1 to 500"],
    [{ ...base, limit: 501 }, "limit", "invalid", "must be an integer from 1 to 500"],
    [{ ...base, limit: "10" }, "limit", "invalid", "must be an integer from 1 to 500"],
    [{ ...base, coin: "USDT" }, "coin", "invalid", "is not a parameter of this endpoint"],
    [{ ...base, coin: undefined }, "coin", "invalid", "is not a parameter of this endpoint"]
  ])("rejects %j naming %s", (input, parameter, kind, rule) => {
    const v = violation(TransferHistoryQuery.validate(input))
    expect(v?.parameter).toBe(parameter)
    expect(v?.kind).toBe(kind)
    if (rule !== undefined) expect(v?.rule).toBe(rule)
    expect(v?.rule.length).toBeGreaterThan(3)
  })

  it("states the rule in words", () => {
    expect(violation(TransferHistoryQuery.validate({ ...base, limit: 501 }))).toEqual({
      parameter: "limit",
      rule: "must be an integer from 1 to 500",
      kind: "invalid"
    })
  })

  it("reads text parameters strictly (server side)", () => {
    expect(TransferHistoryQuery.fromText({ ...base, page: "2", limit: "500" })).toEqual(
      Result.succeed({ ...base, page: 2, limit: 500 })
    )
    for (const bad of ["-1", "1.0", "01", "1e3", "", " 1", "99999999999999999999"]) {
      expect(violation(TransferHistoryQuery.fromText({ ...base, page: bad }))).toEqual({
        parameter: "page",
        rule: "must be base-10 integer text",
        kind: "invalid"
      })
    }
    expect(violation(TransferHistoryQuery.fromText({ toAccountType: "SPOT" }))?.kind).toBe("missing")
    const hostile = JSON.parse("{\"fromAccountType\":\"SPOT\",\"toAccountType\":\"FUTURES\",\"__proto__\":\"x\"}")
    expect(violation(TransferHistoryQuery.fromText(hostile))?.parameter).toBe("__proto__")
    expect(violation(TransferHistoryQuery.fromText({ ...base, limit: "0" }))?.rule).toBe(
      "must be an integer from 1 to 500"
    )
  })
})

describe("QueryViolation.fromText", () => {
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

describe("DepositHistoryQuery", () => {
  it("accepts an empty query and a full one", () => {
    expect(Result.isSuccess(DepositHistoryQuery.validate({}))).toBe(true)
    const q = { coin: "USDT", status: "5", startTime: 1, endTime: 1, limit: 1000, page: 2 }
    expect(Result.isSuccess(DepositHistoryQuery.validate(q))).toBe(true)
    expect(DepositHistoryQuery.toParams({ coin: "USDT", limit: 20, page: 1 })).toEqual([
      ["coin", "USDT"],
      ["limit", "20"],
      ["page", "1"]
    ])
  })

  it.each([
    [{ coin: "" }, "coin"],
    [{ status: "" }, "status"],
    [{ limit: 0 }, "limit"],
    [{ limit: 1001 }, "limit"],
    [{ page: 0 }, "page"],
    [{ startTime: 5, endTime: 4 }, "startTime"],
    [{ endTime: -5 }, "endTime"],
    [{ fromAccountType: "SPOT" }, "fromAccountType"]
  ])("rejects %j naming %s", (input, parameter) => {
    expect(violation(DepositHistoryQuery.validate(input))?.parameter).toBe(parameter)
  })

  it("rejects something that is not an object", () => {
    for (const input of [null, [], "coin=USDT", 5]) {
      expect(violation(DepositHistoryQuery.validate(input))).toEqual({
        parameter: "query",
        rule: "must be an object of parameters",
        kind: "invalid"
      })
    }
  })
})
