// Each line's own DecodeIssue (src/internal/line/), as the pipeline reaches it (`Decoding.describe`
// of what a page's decoder refused): one test for both lines.
import * as Decoding from "../../../src/internal/line/Decoding.js"
import { TransferRecord } from "../../../src/internal/line/Domain.js"
import * as Results from "../../../src/internal/line/Results.js"
import { describe, expect, it } from "../../support/line/Testing.js"

const record = {
  tranId: "1",
  clientTranId: null,
  fromAccount: "master@broker.test",
  toAccount: "sub@broker.test",
  asset: "USDT",
  amount: "1.5",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: 1_700_000_000_000
}

const issue = (value: unknown): string =>
  Results.match(Decoding.decoderFor(TransferRecord.TransferPage)(value), {
    onSuccess: (): string => {
      throw new Error("decoded")
    },
    onFailure: (error) => Decoding.describe(error, value)
  })

describe("DecodeIssue: a decoding failure in one short line", () => {
  it("where and what: the path of the first issue, what was expected and what came", () => {
    expect(issue([record, { ...record, amount: 7 }])).toMatch(/^\[1\]\.amount: .*got 7$/)
    expect(issue({ code: 1 })).toBe("body: expected an array, got an object with fields code")
    const { timestamp: _, ...noTime } = record
    expect(issue([noTime])).toBe("[0].timestamp: is missing")
  })

  it("a value never rendered whole: a deep nesting and a huge text stay short, control characters replaced", () => {
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const nested = issue([{ ...record, tranId: deep }])
    expect(nested).toMatch(/^\[0\]\.tranId: .*got an array of 1 element$/)
    const huge = issue([{ ...record, asset: 5, tranId: "\u001b[2J" + "x".repeat(5_000_000) }])
    expect(huge.length).toBeLessThanOrEqual(200)
    expect(huge).not.toContain("\u001b")
  })
})
