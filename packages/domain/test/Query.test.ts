import { DepositHistoryQuery, QueryViolation, TransferHistoryQuery } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" }

const violation = (e: Either.Either<unknown, QueryViolation.QueryViolation>) => Either.isLeft(e) ? e.left : undefined

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
    expect(Either.isRight(TransferHistoryQuery.validate(q))).toBe(true)
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

  it("sends only the parameters given", () => {
    expect(TransferHistoryQuery.toParams(base)).toEqual([["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]])
  })

  it.each([
    [{ toAccountType: "FUTURES" }, "fromAccountType", "missing"],
    [{ fromAccountType: "SPOT" }, "toAccountType", "missing"],
    [{ ...base, fromAccountType: "" }, "fromAccountType", "missing"],
    [{ ...base, toAccountType: 5 }, "toAccountType", "invalid"],
    [{ ...base, fromAccount: "" }, "fromAccount", "invalid"],
    [{ ...base, toAccount: " sub" }, "toAccount", "invalid"],
    [{ ...base, clientTranId: "short" }, "clientTranId", "invalid"],
    [{ ...base, clientTranId: "a".repeat(31) + "-" }, "clientTranId", "invalid"],
    [{ ...base, clientTranId: "a".repeat(33) }, "clientTranId", "invalid"],
    [{ ...base, startTime: -1 }, "startTime", "invalid"],
    [{ ...base, startTime: 1.5 }, "startTime", "invalid"],
    [{ ...base, endTime: Number.NaN }, "endTime", "invalid"],
    [{ ...base, startTime: 2, endTime: 1 }, "startTime", "invalid"],
    [{ ...base, page: 0 }, "page", "invalid"],
    [{ ...base, page: 1.5 }, "page", "invalid"],
    [{ ...base, limit: 0 }, "limit", "invalid"],
    [{ ...base, limit: 501 }, "limit", "invalid"],
    [{ ...base, limit: "10" }, "limit", "invalid"],
    [{ ...base, coin: "USDT" }, "coin", "invalid"]
  ])("rejects %j naming %s", (input, parameter, kind) => {
    const v = violation(TransferHistoryQuery.validate(input))
    expect(v?.parameter).toBe(parameter)
    expect(v?.kind).toBe(kind)
    expect(v?.rule.length).toBeGreaterThan(3)
  })

  it("states the rule in words", () => {
    expect(violation(TransferHistoryQuery.validate({ ...base, limit: 501 }))).toEqual({
      parameter: "limit",
      rule: "must be an integer from 1 to 500",
      kind: "invalid"
    })
    expect(QueryViolation.format({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })).toBe(
      "page must be an integer >= 1"
    )
  })

  it("reads text parameters strictly (server side)", () => {
    expect(TransferHistoryQuery.fromText({ ...base, page: "2", limit: "500" })).toEqual(
      Either.right({ ...base, page: 2, limit: 500 })
    )
    // Which text is integer text is core's (QueryText); the first one that is not is the violation.
    expect(violation(TransferHistoryQuery.fromText({ ...base, page: "1.0" }))?.rule).toBe(
      "must be base-10 integer text"
    )
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
    const reads: ReadonlyArray<Either.Either<object, QueryViolation.QueryViolation>> = [
      TransferHistoryQuery.fromText({ ...base, page: "2" }),
      DepositHistoryQuery.fromText({ coin: "USDT", limit: "20" }),
      DepositHistoryQuery.fromText({})
    ]
    for (const read of reads) {
      const query = Either.getOrThrow(read)
      expect(Object.getPrototypeOf(query)).toBe(Object.prototype)
      expect(String(query)).toBe("[object Object]")
    }
    expect(Either.getOrThrow(reads[0]!)).toStrictEqual({ ...base, page: 2 })
  })
})

describe("DepositHistoryQuery", () => {
  it("accepts an empty query and a full one", () => {
    expect(Either.isRight(DepositHistoryQuery.validate({}))).toBe(true)
    const q = { coin: "USDT", status: "5", startTime: 1, endTime: 1, limit: 1000, page: 2 }
    expect(Either.isRight(DepositHistoryQuery.validate(q))).toBe(true)
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
    expect(violation(DepositHistoryQuery.validate(null))?.parameter).toBe("query")
  })
})
