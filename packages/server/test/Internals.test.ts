// The pure rules of the internal modules, value in, value out: the query string as received, the
// signed-request checks, the business parameters, the answers' JSON, pending settlement, the schema's
// migrations and the seeded generator.
import * as Prng from "@broker-history/core/random/Prng"
import { Endpoint, ErrorBody, QueryString } from "@broker-history/domain"
import * as NodeSignature from "@broker-history/domain/NodeSignature"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { Store } from "../src/index.js"
import { ApiKeys } from "../src/index.js"
import * as Accounts from "../src/internal/Accounts.js"
import * as WireFormat from "../src/internal/http/WireFormat.js"
import * as Migrations from "../src/internal/Migrations.js"
import * as PendingSettlement from "../src/internal/PendingSettlement.js"
import * as Authentication from "../src/internal/request/Authentication.js"
import * as HistoryQuery from "../src/internal/request/HistoryQuery.js"
import * as RawQuery from "../src/internal/request/RawQuery.js"

describe("RawQuery", () => {
  it("each parameter raw and decoded; a name or value that does not decode stays undefined", () => {
    const [coin, broken] = RawQuery.parse("coin=US%44T&%zz=1")
    expect(coin).toEqual({ rawName: "coin", rawValue: "US%44T", name: "coin", value: "USDT" })
    expect(broken).toEqual({ rawName: "%zz", rawValue: "1", name: undefined, value: "1" })
    expect(RawQuery.parse("a=1&b&c=x=y").map((p) => [p.name, p.value])).toEqual([["a", "1"], ["b", ""], ["c", "x=y"]])
    expect([RawQuery.decode("a%20b"), RawQuery.decode("a+b"), RawQuery.decode("%E0%A4%A")]).toEqual([
      "a b",
      "a+b",
      undefined
    ])
  })

  it("the query string and the path of a URL; a long name cut for a message", () => {
    expect(RawQuery.ofUrl("/api/v3/ping?a=1&b=%20")).toBe("a=1&b=%20")
    expect(RawQuery.ofUrl("/api/v3/ping")).toBe("")
    expect(RawQuery.pathOfUrl("/api/v3/time?signature=abc")).toBe("/api/v3/time")
    expect(RawQuery.label("coin")).toBe("coin")
    expect(RawQuery.label("x".repeat(10_000))).toBe("x".repeat(40) + "…")
  })
})

describe("Authentication", () => {
  const payload = "coin=USDT&timestamp=1700000000000"
  const signed = QueryString.withSignature(payload, NodeSignature.hmacSha256Hex(ApiKeys.demo.secretKey, payload))
  const check = (rawQuery: string, now: number) =>
    Authentication.check({ rawQuery, key: ApiKeys.demo, endpoint: Endpoint.depositHistory, now })

  it("a request that passes: its business parameters, its timestamp and the receive window that applied", () => {
    const verified = Either.getOrThrow(check(signed, 1700000000500))
    expect(verified.params.map((p) => [p.name, p.value])).toEqual([["coin", "USDT"]])
    expect([verified.timestamp, verified.recvWindow]).toEqual([1700000000000, 5000])
    expect(Authentication.signingParameters).toEqual(["timestamp", "recvWindow", "signature"])
  })

  it("refused: outside the receive window, a query changed after signing, no signature", () => {
    expect(check(signed, 1700000010000)).toEqual(Either.left(ErrorBody.Errors.timestampOutsideRecvWindow))
    expect(check(signed.replace("USDT", "USDC"), 1700000000500)).toEqual(Either.left(ErrorBody.Errors.badSignature))
    expect(check(payload, 1700000000500)).toEqual(Either.left(ErrorBody.Errors.mandatoryParameter("signature")))
  })
})

describe("HistoryQuery", () => {
  const now = 1700000000000
  const read = <F>(reader: HistoryQuery.Reader<F>, query: string, at = now, max = HistoryQuery.defaultMaxWindow) =>
    reader(RawQuery.parse(query), at, max)
  const message = <A>(result: Either.Either<A, ErrorBody.ErrorRow>) => Either.isLeft(result) ? result.left.msg : "read"

  it("transfers: the filter (an omitted account is the master's) and the default page; unknown parameters refused", () => {
    expect(read(HistoryQuery.transfers, "fromAccountType=SPOT&toAccountType=FUTURES&toAccount=sub001%40broker.test"))
      .toEqual(Either.right({
        filter: {
          fromAccount: null,
          toAccount: "sub001@broker.test",
          fromAccountType: "SPOT",
          toAccountType: "FUTURES",
          clientTranId: undefined,
          startTime: undefined,
          endTime: undefined
        },
        page: { page: 1, limit: 500 },
        matchesNothing: false
      }))
    expect(message(read(HistoryQuery.transfers, "fromAccountType=SPOT&toAccountType=FUTURES&coin=USDT"))).toBe(
      "Param is error: coin is not a parameter of this endpoint"
    )
  })

  it("transfers accept SPOT and the configured futures spelling, nothing else", () => {
    const future = HistoryQuery.transfersAccepting(Accounts.accepted("FUTURE"))
    expect(message(read(future, "fromAccountType=SPOT&toAccountType=FUTURE"))).toBe("read")
    expect(message(read(future, "fromAccountType=SPOT&toAccountType=FUTURES"))).toBe(
      "Param is error: toAccountType must be SPOT or FUTURE"
    )
  })

  it("deposits: the default window ends now and spans 10 days; a status that is no code matches nothing", () => {
    const tenDays = 864_000_000
    expect(read(HistoryQuery.deposits, "coin=USDT&status=5", 2 * tenDays)).toEqual(Either.right({
      filter: { coin: "USDT", status: 5, startTime: tenDays, endTime: 2 * tenDays },
      page: { page: 1, limit: 20 },
      matchesNothing: false
    }))
    expect(Either.map(read(HistoryQuery.deposits, "status=SUCCESS"), (r) => r.matchesNothing)).toEqual(
      Either.right(true)
    )
    expect(message(read(HistoryQuery.deposits, "startTime=2000&endTime=1000"))).toBe(
      "Param is error: startTime must not be after endTime"
    )
    expect(HistoryQuery.defaultMaxWindow).toEqual({ transfers: undefined, deposits: Endpoint.depositDefaultWindow })
  })

  it("a window longer than the maximum is refused, in ms and in words", () => {
    const oneDay = { transfers: undefined, deposits: "1 day" } as const
    expect(message(read(HistoryQuery.deposits, "startTime=0&endTime=172800000", 172800000, oneDay))).toBe(
      "Param is error: endTime - startTime must not exceed 86400000 ms (1d)"
    )
  })

  it("the sub-account list: its page, 10 a page by default", () => {
    expect(read(HistoryQuery.subAccounts, "page=2")).toEqual(
      Either.right({ filter: { name: undefined }, page: { page: 2, limit: 10 }, matchesNothing: false })
    )
  })
})

describe("WireFormat", () => {
  it("a transfer in MEXC's field order, the master account (null) by its name", () => {
    const row: Store.TransferRow = {
      tranId: "11945860693",
      clientTranId: null,
      fromAccount: null,
      toAccount: "sub001@broker.test",
      asset: "USDT",
      amount: "0.10000000",
      fromAccountType: "SPOT",
      toAccountType: "FUTURES",
      fromSymbol: "",
      toSymbol: "",
      status: "SUCCESS",
      timestamp: 1544433325000
    }
    expect(JSON.stringify(WireFormat.transfer(row, Accounts.masterAccount))).toBe(
      `{"tranId":"11945860693","clientTranId":null,"fromAccount":"master@broker.test","toAccount":"sub001@broker.test",` +
        `"asset":"USDT","amount":"0.10000000","fromAccountType":"SPOT","toAccountType":"FUTURES","fromSymbol":"",` +
        `"toSymbol":"","status":"SUCCESS","timestamp":1544433325000}`
    )
  })

  it("a deposit's status a number, a missing address tag \"\" and a missing memo null; the sub-account list", () => {
    const answered = WireFormat.deposit({
      amount: "50000.00000000",
      coin: "USDT",
      network: "TRC20",
      status: 5,
      address: "TXyz",
      addressTag: null,
      txId: "0xabc",
      unlockConfirm: "20",
      confirmTimes: "20",
      insertTime: 1654064568000,
      memo: null
    })
    expect([answered.status, answered.addressTag, answered.memo]).toEqual([5, "", null])
    expect(JSON.stringify(WireFormat.subAccountList([{ name: "sub001@broker.test", note: "desk 1", createdAt: 1 }])))
      .toBe(`{"code":"0","message":"","data":[{"subAccount":"sub001@broker.test","note":"desk 1","timestamp":"1"}]}`)
  })
})

describe("PendingSettlement", () => {
  it("what is due, and what is wrong with a settlement", () => {
    expect(PendingSettlement.dueBy({ after: "1 minute" }, 120_000)).toBe(60_000)
    expect(PendingSettlement.dueBy({ after: 0 }, 120_000)).toBe(120_000)
    expect(PendingSettlement.problem({ after: "1 minute", failedShare: 0.1 })).toBeUndefined()
    expect(PendingSettlement.problem({ after: "1 minute", failedShare: 2 })).toBe(
      "pendingSettlement.failedShare must be a probability from 0 to 1, got 2"
    )
    expect(PendingSettlement.problem({ after: "soon" as never })).toBe(
      `pendingSettlement.after must be a duration ("30 seconds", 30000 ms, …), got "soon"`
    )
  })

  it("each transfer's outcome is drawn from its id: the share that fails is about failedShare", () => {
    expect(PendingSettlement.settledStatus("10000000001", 0)).toBe("SUCCESS")
    expect(PendingSettlement.settledStatus("10000000001", 1)).toBe("FAILED")
    const ids = Array.from({ length: 1000 }, (_, i) => String(10_000_000_000 + i))
    const failed = ids.filter((id) => PendingSettlement.settledStatus(id, 0.2) === "FAILED").length
    expect(failed).toBeGreaterThan(150)
    expect(failed).toBeLessThan(250)
  })
})

describe("Migrations", () => {
  it.effect("applies each migration once, in order, creating every table", () =>
    Effect.gen(function*() {
      const applied = yield* Migrations.run
      const again = yield* Migrations.run
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
      expect(applied).toEqual([[1, "create_tables"], [2, "sub_accounts"], [3, "pending_transfers"]])
      expect(again).toEqual([])
      expect(["api_keys", "deposits", "sub_accounts", "transfers"].every((t) => tables.some((r) => r.name === t)))
        .toBe(true)
    }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" }))))
})

describe("Prng", () => {
  it("the same seed draws the same numbers in [0, 1); int, pick and text cover their range", () => {
    const [a, b] = [Prng.mulberry32(7), Prng.mulberry32(7)]
    const draws = Array.from({ length: 1000 }, () => a())
    expect(Array.from({ length: 1000 }, () => b())).toEqual(draws)
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true)
    const next = Prng.mulberry32(1)
    expect([...new Set(Array.from({ length: 600 }, () => Prng.int(next, 1, 6)))].sort()).toEqual([1, 2, 3, 4, 5, 6])
    expect([...new Set(Array.from({ length: 100 }, () => Prng.pick(next, ["SPOT", "FUTURES"])))].sort()).toEqual([
      "FUTURES",
      "SPOT"
    ])
    expect(Prng.text(next, "0123456789abcdef", 8)).toMatch(/^[0-9a-f]{8}$/)
  })
})
