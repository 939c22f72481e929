// What the sub-account list page says when it refuses a body, and what it encodes to. What it accepts
// and decodes to is the Effect 3 line's (SameAsV3.test.ts).
import { SubAccount } from "@broker-history/domain-effect4"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"

const failure = (u: unknown): string => {
  const result = Schema.decodeUnknownResult(SubAccount.SubAccountPage)(u)
  return Result.isFailure(result) ? result.failure.message : "decoded"
}

describe("SubAccount.SubAccountPage", () => {
  it.each([
    ["a code other than 0", { code: "700001", message: "API-key format invalid." }, "at [\"code\"]"],
    ["no data", { code: "0", message: "" }, "Missing key\n  at [\"data\"]"],
    ["null data", { code: "0", message: "", data: null }, "Expected array\n  at [\"data\"]"],
    ["a record without a name", [{ note: "", timestamp: 1 }], "Missing key\n  at [0][\"subAccount\"]"],
    [
      "an empty name",
      [{ subAccount: "", timestamp: 1 }],
      "expected a sub-account name (1 to 256 characters, no surrounding spaces)\n  at [0][\"subAccount\"]"
    ],
    ["a number as the name", [{ subAccount: 7 }], "Expected a sub-account name\n  at [0][\"subAccount\"]"],
    [
      "a fractional time",
      [{ subAccount: "a", timestamp: "1597026383085.5" }],
      "Expected a Unix millisecond timestamp or null\n  at [0][\"timestamp\"]"
    ],
    ["a note that is a number", [{ subAccount: "a", note: 5 }], "Expected text or null\n  at [0][\"note\"]"],
    ["a record that is text", ["a"], "Expected SubAccount\n  at [0]"],
    ["text", "mexc1", "Expected a sub-account list page"],
    ["null", null, "Expected a sub-account list page"]
  ])("refuses %s, naming where and why", (_, body, message) => {
    expect(failure(body)).toContain(message)
  })

  it("encodes to the documented envelope", () => {
    const mexc1 = { subAccount: "mexc1", note: "1", timestamp: 1597026383085 }
    expect(Schema.encodeSync(SubAccount.SubAccountPage)([mexc1])).toEqual({ code: "0", message: "", data: [mexc1] })
  })
})
