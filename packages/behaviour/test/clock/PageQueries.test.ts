// The page calls' requests and answers on both lines over the mock transport: the exact query sent
// and signed, the key header, recvWindow, RFC 3986 encoding, queries refused before any request, and
// what a page's body decodes to.
import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
import { describe, expect, it } from "vitest"
import { transferWire } from "../../../client/test/support/MockService.js"
import type { Outcome } from "../../src/Line.js"
import { failure, success } from "../../src/Line.js"
import type { Answer, PageMethod, Seen, Settings } from "../../src/Simulation.js"
import { credentials, settled } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const transfers = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

const ok = (): Answer => ({ status: 200, body: [transferWire("1", 1000)] })

describe.each(Simulations.all)("BrokerHistory page calls ($name)", (line) => {
  /** One page call over `answer`; its outcome and the requests sent. */
  const page = async (method: PageMethod, query: unknown, answer: () => Answer = ok, settings: Settings = {}) => {
    let result: { readonly outcome: Outcome<unknown>; readonly seen: ReadonlyArray<Seen> } | undefined
    await line.run({ answer }, { start: 0, settings }, async (sim) => {
      result = { outcome: await settled(sim, sim.call(method, query)), seen: sim.requests }
    })
    return result!
  }

  it("signs the exact query sent, with the key header", async () => {
    const { outcome, seen: [seen] } = await page("transferHistory", { ...transfers, page: 1, limit: 500 })
    expect((success(outcome) as ReadonlyArray<{ readonly amount: string }>)[0]?.amount).toBe("10.50000000")
    expect(seen?.path).toBe("/api/v3/broker/sub-account/universalTransfer")
    expect(seen?.query).toMatch(
      /^fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=\d+&signature=[0-9a-f]{64}$/
    )
    const [payload, signature] = seen!.query.split("&signature=")
    expect(signature).toBe(NodeSignature.hmacSha256Hex(credentials.secretKey, payload!))
    expect(seen?.headers["x-mexc-apikey"]).toBe(credentials.apiKey)
    expect(seen?.headers["content-type"]).toBe("application/json")
  })

  it("sends recvWindow before timestamp when configured", async () => {
    const { seen } = await page("depositHistory", { coin: "USDT", limit: 20, page: 1 }, () => ({
      status: 200,
      body: []
    }), { recvWindow: 5000 })
    expect(seen[0]?.query).toMatch(/^coin=USDT&limit=20&page=1&recvWindow=5000&timestamp=\d+&signature=/)
  })

  it("percent-encodes values per RFC 3986 and signs the encoded text", async () => {
    const { seen } = await page("transferHistory", { ...transfers, fromAccount: "a b*(x)@mail" }, () => ({
      status: 200,
      body: []
    }))
    const query = seen[0]!.query
    expect(query).toContain("fromAccount=a%20b%2A%28x%29%40mail")
    const [payload, signature] = query.split("&signature=")
    expect(signature).toBe(NodeSignature.hmacSha256Hex(credentials.secretKey, payload!))
  })

  it.each([
    [{ ...transfers, limit: 501 }, "limit"],
    [{ ...transfers, limit: 0 }, "limit"],
    [{ ...transfers, page: 0 }, "page"],
    [{ ...transfers, clientTranId: "short" }, "clientTranId"],
    [{ ...transfers, startTime: 10, endTime: 5 }, "startTime"],
    [{ ...transfers, fromAccountType: "" }, "fromAccountType"],
    [{ ...transfers, fromAccount: "" }, "fromAccount"],
    [{ ...transfers, endTime: -1 }, "endTime"],
    [{ toAccountType: "FUTURES" }, "fromAccountType"]
  ])("rejects transfer query %j with InvalidQuery(%s) and sends nothing", async (query, parameter) => {
    const { outcome, seen } = await page("transferHistory", query)
    const error = failure(outcome)
    expect(error._tag).toBe("InvalidQuery")
    expect(error.fields["parameter"]).toBe(parameter)
    expect(error.message).toContain(parameter)
    expect(seen.length).toBe(0)
  })

  it.each([
    [{ limit: 1001 }, "limit"],
    [{ coin: "" }, "coin"],
    [{ status: "" }, "status"],
    [{ page: 1.5 }, "page"],
    [{ startTime: 3, endTime: 2 }, "startTime"]
  ])("rejects deposit query %j with InvalidQuery(%s) and sends nothing", async (query, parameter) => {
    const { outcome, seen } = await page("depositHistory", query)
    const error = failure(outcome)
    expect(error._tag).toBe("InvalidQuery")
    expect(error.fields["parameter"]).toBe(parameter)
    expect(seen.length).toBe(0)
  })

  it("decodes deposits tolerantly (numeric status, nulls, exact decimals)", async () => {
    const { outcome } = await page("depositHistory", {}, () => ({
      status: 200,
      body: [{
        amount: "0.00010000",
        coin: "BTC",
        network: "BTC",
        status: 5,
        address: "bc1q",
        addressTag: null,
        txId: "tx1",
        unlockConfirm: 2,
        confirmTimes: "1",
        insertTime: 1700000000000,
        memo: null,
        unknownField: true
      }]
    }))
    expect(success(outcome)).toEqual([{
      amount: "0.00010000",
      coin: "BTC",
      network: "BTC",
      status: "5",
      address: "bc1q",
      addressTag: "",
      txId: "tx1",
      unlockConfirm: "2",
      confirmTimes: "1",
      insertTime: 1700000000000,
      memo: ""
    }])
  })

  it("a body of another shape is a ResponseDecodeError with an excerpt, not retried", async () => {
    const { outcome, seen } = await page("transferHistory", transfers, () => ({
      status: 200,
      body: [{ ...transferWire("1", 1), amount: 10.5 }]
    }))
    const error = failure(outcome)
    expect(error._tag).toBe("ResponseDecodeError")
    expect(error.fields["reason"]).toBe("UnexpectedShape")
    expect(error.fields["description"]).toContain("[0].amount")
    expect(error.fields["excerpt"]).toContain("10.5")
    expect(seen.length).toBe(1)
  })
})
