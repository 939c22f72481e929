import { describe, expect, it } from "vitest"
import * as QueryViolation from "../../src/query/QueryViolation.js"

describe("QueryViolation", () => {
  it("a violation is one sentence: the parameter, then its rule", () => {
    expect(QueryViolation.format({ parameter: "page", rule: QueryViolation.integerRule(1), kind: "invalid" })).toBe(
      "page must be an integer >= 1"
    )
    expect(QueryViolation.integerRule(1, 500)).toBe("must be an integer from 1 to 500")
    expect(QueryViolation.nonEmptyRule("omit it to mean every coin")).toBe(
      "must not be empty (omit it to mean every coin)"
    )
  })

  it("integers, timestamps and windows keep their rules", () => {
    expect([1, 500, 20.5, 0, 501, Number.NaN, 2 ** 53].map(QueryViolation.isInteger(1, 500))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false
    ])
    expect(QueryViolation.isInteger(1)(2 ** 40)).toBe(true)
    expect([0, 1735689600000, -1, 1.5, 2 ** 53].map(QueryViolation.isMillis)).toEqual([true, true, false, false, false])
    expect(QueryViolation.inTimeOrder({ startTime: 1, endTime: 1 })).toBe(true)
    expect(QueryViolation.inTimeOrder({ startTime: 2, endTime: 1 })).toBe(false)
    expect(QueryViolation.inTimeOrder({ endTime: 1 })).toBe(true)
  })

  it("a schema's first failure becomes the violation each line reports", () => {
    expect(QueryViolation.ofFailure(undefined, { _tag: "Rule", rule: "anything" })).toEqual({
      parameter: "query",
      rule: "must be an object of parameters",
      kind: "invalid"
    })
    expect(QueryViolation.ofFailure("coin", { _tag: "Unexpected" })).toEqual({
      parameter: "coin",
      rule: "is not a parameter of this endpoint",
      kind: "invalid"
    })
    expect(QueryViolation.ofFailure("toAccountType", { _tag: "Missing" })).toEqual({
      parameter: "toAccountType",
      rule: "is required",
      kind: "missing"
    })
    // An empty mandatory text breaks the rule "is required": missing too.
    expect(QueryViolation.ofFailure("fromAccountType", { _tag: "Rule", rule: "is required" }).kind).toBe("missing")
    expect(QueryViolation.ofFailure("limit", { _tag: "Rule", rule: "must be an integer from 1 to 500" }).kind).toBe(
      "invalid"
    )
  })
})
