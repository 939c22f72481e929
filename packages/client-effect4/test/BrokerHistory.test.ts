import { BrokerError, BrokerHistory } from "@broker-history/client-effect4"
import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import { historyLayer, mockService, secretKey, transferWire } from "./support/MockService.js"

const transfers = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

const ok = () => ({ status: 200, body: [transferWire("1", 1000)] })

const run = <A, E>(
  mock: ReturnType<typeof mockService>,
  f: (h: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, E>,
  overrides = {}
) => Effect.flatMap(Effect.service(BrokerHistory.BrokerHistory), f).pipe(Effect.provide(historyLayer(mock, overrides)))

describe("BrokerHistory page calls", () => {
  it.effect("signs the exact query sent, with the key header", () =>
    Effect.gen(function*() {
      const mock = mockService(ok)
      const page = yield* run(mock, (h) => h.transferHistory({ ...transfers, page: 1, limit: 500 }))
      expect(page[0]?.amount).toBe("10.50000000")
      const [seen] = mock.seen
      expect(seen?.path).toBe("/api/v3/broker/sub-account/universalTransfer")
      expect(seen?.query).toMatch(
        /^fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=\d+&signature=[0-9a-f]{64}$/
      )
      const [payload, signature] = seen!.query.split("&signature=")
      expect(signature).toBe(NodeSignature.hmacSha256Hex(secretKey, payload!))
      expect(seen?.headers["x-mexc-apikey"]).toBe("mock-api-key-3f9a1c")
      expect(seen?.headers["content-type"]).toBe("application/json")
    }))

  it.effect("sends recvWindow before timestamp when configured", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({ status: 200, body: [] }))
      yield* run(mock, (h) => h.depositHistory({ coin: "USDT", limit: 20, page: 1 }), { recvWindow: 5000 })
      expect(mock.seen[0]?.query).toMatch(/^coin=USDT&limit=20&page=1&recvWindow=5000&timestamp=\d+&signature=/)
    }))

  it.effect("percent-encodes values per RFC 3986 and signs the encoded text", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({ status: 200, body: [] }))
      yield* run(mock, (h) => h.transferHistory({ ...transfers, fromAccount: "a b*(x)@mail" }))
      const query = mock.seen[0]!.query
      expect(query).toContain("fromAccount=a%20b%2A%28x%29%40mail")
      const [payload, signature] = query.split("&signature=")
      expect(signature).toBe(NodeSignature.hmacSha256Hex(secretKey, payload!))
    }))

  it.effect.each([
    [{ ...transfers, limit: 501 }, "limit"],
    [{ ...transfers, limit: 0 }, "limit"],
    [{ ...transfers, page: 0 }, "page"],
    [{ ...transfers, clientTranId: "short" }, "clientTranId"],
    [{ ...transfers, startTime: 10, endTime: 5 }, "startTime"],
    [{ ...transfers, fromAccountType: "" }, "fromAccountType"],
    [{ ...transfers, fromAccount: "" }, "fromAccount"],
    [{ ...transfers, endTime: -1 }, "endTime"],
    [{ toAccountType: "FUTURES" }, "fromAccountType"]
  ])(
    "rejects transfer query %j with InvalidQuery(%s) and sends nothing",
    ([query, parameter]) =>
      Effect.gen(function*() {
        const mock = mockService(ok)
        const exit = yield* Effect.exit(run(mock, (h) => h.transferHistory(query as any)))
        expect(exit).toMatchObject({ _tag: "Failure" })
        const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
        expect(error).toBeInstanceOf(BrokerError.InvalidQuery)
        expect((error as BrokerError.InvalidQuery).parameter).toBe(parameter)
        expect((error as BrokerError.InvalidQuery).message).toContain(parameter as string)
        expect(mock.seen.length).toBe(0)
      })
  )

  it.effect.each([
    [{ limit: 1001 }, "limit"],
    [{ coin: "" }, "coin"],
    [{ status: "" }, "status"],
    [{ page: 1.5 }, "page"],
    [{ startTime: 3, endTime: 2 }, "startTime"]
  ])(
    "rejects deposit query %j with InvalidQuery(%s) and sends nothing",
    ([query, parameter]) =>
      Effect.gen(function*() {
        const mock = mockService(ok)
        const error = yield* Effect.flip(run(mock, (h) => h.depositHistory(query as any)))
        expect(error._tag).toBe("InvalidQuery")
        expect((error as BrokerError.InvalidQuery).parameter).toBe(parameter)
        expect(mock.seen.length).toBe(0)
      })
  )

  it.effect("decodes deposits tolerantly (numeric status, nulls, exact decimals)", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({
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
      const [d] = yield* run(mock, (h) => h.depositHistory({}))
      expect(d).toEqual({
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
      })
    }))

  it.effect("a body of another shape is a ResponseDecodeError with an excerpt, not retried", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({ status: 200, body: [{ ...transferWire("1", 1), amount: 10.5 }] }))
      const error = yield* Effect.flip(run(mock, (h) => h.transferHistory(transfers)))
      expect(error._tag).toBe("ResponseDecodeError")
      const e = error as BrokerError.ResponseDecodeError
      expect(e.reason).toBe("UnexpectedShape")
      expect(e.description).toContain("[0].amount")
      expect(e.excerpt).toContain("10.5")
      expect(mock.seen.length).toBe(1)
    }))
})
