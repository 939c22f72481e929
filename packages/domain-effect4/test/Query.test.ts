// The query modules' own parts: parameters received as text go through the schema, plain objects
// come back. The parameters' order and the reading of integer text are core's (its tests); which rule
// a query breaks is the Effect 3 line's (SameAsV3.test.ts); the accept-check is held to the schemas in
// QueryAccepts.test.ts.
import { DepositHistoryQuery, TransferHistoryQuery } from "@broker-history/domain-effect4"
import type { QueryViolation } from "@broker-history/domain-effect4"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" }

describe("fromText", () => {
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
