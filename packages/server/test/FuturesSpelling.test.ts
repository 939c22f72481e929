// The futures account type as the service spells it: `FUTURES` by default, `FUTURE` (the exchange's
// own broker example) when configured. The seed's records carry the spelling, and the transfer
// endpoint accepts SPOT and that spelling only, whatever the domain package lists.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeys, ReferenceServer, Seed } from "../src/index.js"
import * as Accounts from "../src/internal/Accounts.js"
import * as HistoryQuery from "../src/internal/request/HistoryQuery.js"
import * as RawQuery from "../src/internal/request/RawQuery.js"
import { json, signedGet, transfersPath } from "./support/Requests.js"
import { unlimited, withServer } from "./support/Server.js"

const seed = { seed: 9, transfers: 2000, deposits: 0, subAccounts: 4, end: 1_700_000_000_000, years: 1 }

const transfers = (server: ReferenceServer.Service, from: string, to: string) =>
  signedGet(
    server.baseUrl,
    transfersPath,
    [["fromAccountType", from], ["toAccountType", to], ["startTime", "0"]],
    ApiKeys.demo
  )

describe("the seed's futures spelling", () => {
  it("FUTURE: the records of FUTURES with that one word changed", () => {
    const futures = Seed.transfers(seed)
    const future = Seed.transfers({ ...seed, futuresAccountType: "FUTURE" })
    const spelled = (type: string) => type === "FUTURES" ? "FUTURE" : type
    expect(future).toEqual(
      futures.map((t) => ({
        ...t,
        fromAccountType: spelled(t.fromAccountType),
        toAccountType: spelled(t.toAccountType)
      }))
    )
    expect(new Set(future.flatMap((t) => [t.fromAccountType, t.toAccountType]))).toEqual(new Set(["SPOT", "FUTURE"]))
    expect(future.some((t) => t.toSymbol !== "")).toBe(true)
  })
})

describe("HistoryQuery.transfersAccepting", () => {
  it("accepts its account types only, and its refusal lists them", () => {
    const read = (accepted: ReadonlyArray<string>, from: string, to: string) =>
      HistoryQuery.transfersAccepting(accepted)(
        RawQuery.parse(`fromAccountType=${from}&toAccountType=${to}`),
        1_700_000_000_000,
        HistoryQuery.defaultMaxWindow
      )
    const msg = (accepted: ReadonlyArray<string>, from: string, to: string) => {
      const result = read(accepted, from, to)
      return result._tag === "Left" ? result.left.msg : "accepted"
    }
    expect(msg(Accounts.accepted("FUTURE"), "FUTURE", "SPOT")).toBe("accepted")
    expect(msg(Accounts.accepted("FUTURE"), "FUTURES", "SPOT")).toBe(
      "Param is error: fromAccountType must be SPOT or FUTURE"
    )
    expect(msg(Accounts.accepted(), "SPOT", "FUTURE")).toBe("Param is error: toAccountType must be SPOT or FUTURES")
    // Not the domain's documented list: a type only the domain might list is refused too.
    expect(msg(["SPOT", "FUTURES"], "MARGIN", "SPOT")).toBe("Param is error: fromAccountType must be SPOT or FUTURES")
    expect(HistoryQuery.transfers(RawQuery.parse("fromAccountType=SPOT&toAccountType=FUTURES"), 0, {})._tag).toBe(
      "Right"
    )
  })
})

withServer({ seed, futuresAccountType: "FUTURE", rateLimit: unlimited })("a service spelling it FUTURE", (it) => {
  it.effect("answers FUTURE records to FUTURE queries and refuses FUTURES with 33333 naming SPOT or FUTURE", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const stored = yield* server.store.allTransfers({
        fromAccount: null,
        toAccount: null,
        fromAccountType: "SPOT",
        toAccountType: "FUTURE"
      })
      expect(stored.length).toBeGreaterThan(0)
      const reply = yield* transfers(server, "SPOT", "FUTURE")
      expect(reply.status).toBe(200)
      const answered = json(reply) as ReadonlyArray<{ tranId: string; toAccountType: string }>
      expect(answered.map((t) => t.tranId)).toEqual(stored.map((t) => t.tranId).reverse())
      expect(answered.every((t) => t.toAccountType === "FUTURE")).toBe(true)
      expect((yield* transfers(server, "FUTURE", "FUTURE")).status).toBe(200)
      expect((yield* transfers(server, "SPOT", "SPOT")).status).toBe(200)
      for (const [from, to, name] of [["SPOT", "FUTURES", "toAccountType"], ["FUTURES", "SPOT", "fromAccountType"]]) {
        const refused = yield* transfers(server, from!, to!)
        expect([refused.status, json(refused)]).toEqual([
          400,
          { code: 33333, msg: `Param is error: ${name} must be SPOT or FUTURE` }
        ])
      }
      expect((yield* server.store.counts).transfers).toBe(2000)
      const all = yield* server.store.allTransfers()
      expect(all.some((t) => t.fromAccountType === "FUTURES" || t.toAccountType === "FUTURES")).toBe(false)
    }))
})

withServer({ seed, rateLimit: unlimited })("a service spelling it FUTURES (the default)", (it) => {
  it.effect("refuses FUTURE with 33333 naming SPOT or FUTURES", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      expect((yield* transfers(server, "SPOT", "FUTURES")).status).toBe(200)
      const refused = yield* transfers(server, "SPOT", "FUTURE")
      expect([refused.status, json(refused)]).toEqual([
        400,
        { code: 33333, msg: "Param is error: toAccountType must be SPOT or FUTURES" }
      ])
    }))
})
