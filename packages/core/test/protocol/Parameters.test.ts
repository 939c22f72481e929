import { describe, expect, it } from "vitest"
import * as Parameters from "../../src/protocol/Parameters.js"
import * as QueryString from "../../src/signing/QueryString.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" }

describe("Parameters", () => {
  it("in the exchange's documented order, each value as text, only those given", () => {
    const clientTranId = "a".repeat(16) + "B1".repeat(8)
    const transfers = QueryString.fields<Parameters.TransferHistoryQuery>(Parameters.transferHistory.order)
    expect(
      transfers({
        ...base,
        clientTranId,
        fromAccount: "a",
        toAccount: "b",
        startTime: 1,
        endTime: 2,
        page: 3,
        limit: 5
      })
    )
      .toEqual([
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
    expect(transfers(base)).toEqual([["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]])
    const deposits = QueryString.fields<Parameters.DepositHistoryQuery>(Parameters.depositHistory.order)
    expect(deposits({ page: 1, limit: 20, endTime: 2, startTime: 1, status: "5", coin: "USDT" })).toEqual([
      ["coin", "USDT"],
      ["status", "5"],
      ["startTime", "1"],
      ["endTime", "2"],
      ["limit", "20"],
      ["page", "1"]
    ])
    const subAccounts = QueryString.fields<Parameters.SubAccountListQuery>(Parameters.subAccountList.order)
    expect(subAccounts({ limit: 200, page: 2, subAccount: "mexc1" })).toEqual([
      ["subAccount", "mexc1"],
      ["page", "2"],
      ["limit", "200"]
    ])
  })

  it("the integer parameters are the window, the page and the limit, each a parameter of its query", () => {
    for (const endpoint of [Parameters.transferHistory, Parameters.depositHistory, Parameters.subAccountList]) {
      for (const name of endpoint.integers) expect(endpoint.order).toContain(name)
    }
    expect([...Parameters.transferHistory.integers].sort()).toEqual(["endTime", "limit", "page", "startTime"])
    expect([...Parameters.depositHistory.integers].sort()).toEqual(["endTime", "limit", "page", "startTime"])
    expect(Parameters.subAccountList.integers).toEqual(["page", "limit"])
  })
})
