// What the record schemas say when they refuse a record, and what they encode to. What they accept
// and decode to is the Effect 3 line's (SameAsV3.test.ts); the record rules as plain functions are
// tested in core.
import { DepositRecord, TransferRecord } from "@broker-history/domain-effect4"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { validDeposit, validTransfer } from "./arbitraries.js"

const failure = <A>(schema: Schema.Decoder<A>, input: unknown): string => {
  const result = Schema.decodeUnknownResult(schema)(input)
  return Result.isFailure(result) ? result.failure.message : "decoded"
}

describe("TransferRecord", () => {
  it.each([
    [{ tranId: "" }, "Expected a non-empty identifier\n  at [\"tranId\"]"],
    [{ tranId: null }, "Expected a non-empty identifier\n  at [\"tranId\"]"],
    [{ timestamp: -1 }, "Expected a Unix millisecond timestamp\n  at [\"timestamp\"]"],
    [{ amount: 0.1 }, "Expected string\n  at [\"amount\"]"],
    [{ amount: "1e5" }, "expected decimal text such as \"12.5\"\n  at [\"amount\"]"],
    [{ asset: undefined }, "Expected string\n  at [\"asset\"]"],
    [{ status: 5 }, "Expected text or null\n  at [\"status\"]"]
  ])("refuses a record with %j, naming the field and its rule", (change, message) => {
    expect(failure(TransferRecord.TransferRecord, { ...validTransfer, ...change })).toBe(message)
  })

  it("refuses what is no record, and names the record of a page that breaks a rule", () => {
    expect(failure(TransferRecord.TransferRecord, "x")).toBe("Expected object")
    expect(failure(TransferRecord.TransferPage, [validTransfer, { ...validTransfer, tranId: "" }])).toBe(
      "Expected a non-empty identifier\n  at [1][\"tranId\"]"
    )
  })

  it("encodes to the sample spelling, which decodes to the same record", () => {
    const { fromSymbol: _f, ...lower } = validTransfer
    const r = Schema.decodeUnknownSync(TransferRecord.TransferRecord)({ ...lower, fromsymbol: "X" })
    const encoded = Schema.encodeSync(TransferRecord.TransferRecord)(r)
    expect(encoded.fromSymbol).toBe("X")
    expect("fromsymbol" in encoded).toBe(false)
    expect(Schema.decodeUnknownSync(TransferRecord.TransferRecord)(encoded)).toStrictEqual(r)
  })
})

describe("DepositRecord", () => {
  it.each([
    [{ amount: 5 }, "Expected string\n  at [\"amount\"]"],
    [{ insertTime: undefined }, "Expected a Unix millisecond timestamp\n  at [\"insertTime\"]"],
    [{ status: { x: 1 } }, "Expected text, a number or null\n  at [\"status\"]"],
    [{ memo: 5 }, "Expected text or null\n  at [\"memo\"]"]
  ])("refuses a record with %j, naming the field and its rule", (change, message) => {
    expect(failure(DepositRecord.DepositRecord, { ...validDeposit, ...change })).toBe(message)
  })

  it("encodes to what decodes to the same record", () => {
    const d = Schema.decodeUnknownSync(DepositRecord.DepositRecord)(validDeposit)
    expect(Schema.decodeUnknownSync(DepositRecord.DepositRecord)(Schema.encodeSync(DepositRecord.DepositRecord)(d)))
      .toStrictEqual(d)
  })
})
