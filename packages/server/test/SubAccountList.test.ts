// The broker's sub-account list (`GET /api/v3/broker/sub-account/list`) over real HTTP: the
// exchange's documented answer shape, paging by creation time then name, its parameter rules and
// refusals, sub-accounts created while the service runs, and the sub-accounts a database file keeps.
import { Migrator } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ApiKeys, ReferenceServer, Seed, Store } from "../src/index.js"
import * as Migrations from "../src/internal/Migrations.js"
import { json, signedGet, transfersPath } from "./support/Requests.js"
import type { Credentials } from "./support/Requests.js"
import { transferRow } from "./support/Rows.js"
import { unlimited, withServer } from "./support/Server.js"

const path = ReferenceServer.subAccountListPath
const day = 86_400_000
const end = 1_700_000_000_000
const start = end - 365 * day

interface Listed {
  readonly subAccount: string
  readonly note: string
  readonly timestamp: string
}

interface ListAnswer {
  readonly code: string
  readonly message: string
  readonly data: ReadonlyArray<Listed>
}

const list = (
  server: ReferenceServer.Service,
  params: ReadonlyArray<readonly [string, string]>,
  key: Credentials = ApiKeys.demo
) => signedGet(server.baseUrl, path, params, key)

/** The listed page's body; the request must have been answered 200. */
const listed = (server: ReferenceServer.Service, params: ReadonlyArray<readonly [string, string]>) =>
  Effect.map(list(server, params), (reply) => {
    expect(reply.status).toBe(200)
    return json(reply) as ListAnswer
  })

const names = (answer: ListAnswer) => answer.data.map((s) => s.subAccount)

const refusal = (reply: { readonly status: number; readonly body: string }) => {
  const body = JSON.parse(reply.body) as Record<string, unknown>
  expect(Object.keys(body).sort()).toEqual(["code", "msg"])
  return { status: reply.status, ...body }
}

withServer({
  seed: { seed: 3, transfers: 200, deposits: 0, subAccounts: 12, end, years: 1 },
  rateLimit: unlimited
})("the sub-account list", (it) => {
  const server = ReferenceServer.ReferenceServer

  it.effect("answers the documented shape: {code:\"0\",message:\"\",data:[…]}, creation times as decimal text", () =>
    Effect.gen(function*() {
      const reply = yield* list(yield* server, [["limit", "200"]])
      expect(reply.status).toBe(200)
      expect(reply.body.startsWith(`{"code":"0","message":"","data":[{"subAccount":"sub001@broker.test"`)).toBe(true)
      const answer = json(reply) as ListAnswer
      expect(Object.keys(answer)).toEqual(["code", "message", "data"])
      // Without staggered creation every seeded sub-account was created at the history's start.
      expect(answer.data.slice(0, 12)).toEqual(
        Seed.subAccountNames(12).map((subAccount) => ({ subAccount, note: "", timestamp: String(start) }))
      )
    }))

  it.effect("pages by creation time then name: 10 by default, at most 200, a page past the end is empty", () =>
    Effect.gen(function*() {
      const service = yield* server
      const all = names(yield* listed(service, [["limit", "200"]]))
      expect(names(yield* listed(service, []))).toEqual(all.slice(0, 10))
      expect(names(yield* listed(service, [["page", "2"]]))).toEqual(all.slice(10, 20))
      expect(names(yield* listed(service, [["page", "3"], ["limit", "5"]]))).toEqual(all.slice(10, 15))
      expect(names(yield* listed(service, [["page", "1000"], ["limit", "200"]]))).toEqual([])
    }))

  it.effect("filters by exact name; an unknown name lists nothing", () =>
    Effect.gen(function*() {
      const service = yield* server
      expect(yield* listed(service, [["subAccount", "sub002@broker.test"]])).toEqual({
        code: "0",
        message: "",
        data: [{ subAccount: "sub002@broker.test", note: "", timestamp: String(start) }]
      })
      expect(names(yield* listed(service, [["subAccount", "SUB002@broker.test"]]))).toEqual([])
      expect(names(yield* listed(service, [["subAccount", "sub002"]]))).toEqual([])
    }))

  it.effect("refuses bad parameters by the domain's rules with 400 33333 and a {code,msg} body naming the rule", () =>
    Effect.gen(function*() {
      const service = yield* server
      const cases: ReadonlyArray<readonly [ReadonlyArray<readonly [string, string]>, string]> = [
        [[["limit", "201"]], "Param is error: limit must be an integer from 1 to 200"],
        [[["limit", "0"]], "Param is error: limit must be an integer from 1 to 200"],
        [[["limit", "1.5"]], "Param is error: limit must be base-10 integer text"],
        [[["page", "0"]], "Param is error: page must be an integer >= 1"],
        [[["page", "-1"]], "Param is error: page must be base-10 integer text"],
        [[["subAccount", ""]], "Param is error: subAccount must not be empty (omit it to list every sub-account)"],
        [[["subAccount", " sub001@broker.test"]], "Param is error: subAccount must not start or end with spaces"],
        [[["colour", "red"]], "Param is error: colour is not a parameter of this endpoint"],
        [[["page", "1"], ["page", "2"]], "Param is error: page is repeated"]
      ]
      for (const [params, msg] of cases) {
        expect(refusal(yield* list(service, params))).toEqual({ status: 400, code: 33333, msg })
      }
    }))

  it.effect("refuses unsigned requests, bad signatures and unknown keys like the other signed endpoints", () =>
    Effect.gen(function*() {
      const service = yield* server
      const { get } = yield* Effect.promise(() => import("./support/Requests.js"))
      const unsigned = yield* get(service.baseUrl, path, { headers: { "X-MEXC-APIKEY": ApiKeys.demo.apiKey } })
      expect(refusal(unsigned)).toMatchObject({ status: 400, code: 700004 })
      const wrong = yield* list(service, [], { ...ApiKeys.demo, secretKey: "not-the-secret" })
      expect(refusal(wrong)).toMatchObject({ status: 401, code: 700002 })
      const unknown = yield* list(service, [], { apiKey: "unknown", secretKey: "s" })
      expect(refusal(unknown)).toMatchObject({ status: 401, code: 700001 })
    }))

  it.effect("a key with either history permission may list; a key with neither is refused (403 700007)", () =>
    Effect.gen(function*() {
      const service = yield* server
      const depositsOnly: ApiKeys.ApiKey = {
        apiKey: "list-deposits",
        secretKey: "s1",
        permissions: ["SPOT_DEPOSIT_READ"]
      }
      const none: ApiKeys.ApiKey = { apiKey: "list-none", secretKey: "s2", permissions: [] }
      yield* service.store.putKeys([depositsOnly, none])
      expect((yield* list(service, [], depositsOnly)).status).toBe(200)
      expect(refusal(yield* list(service, [], none))).toMatchObject({ status: 403, code: 700007 })
    }))
})

withServer({ seed: { seed: 4, transfers: 100, deposits: 0, subAccounts: 3, end, years: 1 }, rateLimit: unlimited })(
  "sub-accounts created while the service runs",
  (it) => {
    const server = ReferenceServer.ReferenceServer

    it.effect("are listed from then on, in creation order, and transfers naming them can be stored and read", () =>
      Effect.gen(function*() {
        const service = yield* server
        const before = Date.now()
        const desk = yield* service.createSubAccount({ name: "desk@broker.test", note: "trading desk" })
        expect(desk.note).toBe("trading desk")
        expect(desk.createdAt).toBeGreaterThanOrEqual(before)
        // Created at the history's start too: after sub002 by name, before sub003.
        const early = yield* service.createSubAccount({ name: "sub002a@broker.test", createdAt: start })
        expect(early).toEqual({ name: "sub002a@broker.test", note: "", createdAt: start })
        const answer = yield* listed(service, [["limit", "200"]])
        expect(answer.data).toEqual([
          ...["sub001@broker.test", "sub002@broker.test", "sub002a@broker.test", "sub003@broker.test"].map((
            subAccount
          ) => ({ subAccount, note: "", timestamp: String(start) })),
          { subAccount: "desk@broker.test", note: "trading desk", timestamp: String(desk.createdAt) }
        ])
        expect(names(yield* listed(service, [["page", "2"], ["limit", "4"]]))).toEqual(["desk@broker.test"])

        const transfer = transferRow("77", Date.now() - 1, { toAccount: "desk@broker.test" })
        yield* service.store.insertTransfers([transfer])
        const reply = yield* signedGet(service.baseUrl, transfersPath, [
          ["fromAccountType", "SPOT"],
          ["toAccountType", "FUTURES"],
          ["toAccount", "desk@broker.test"]
        ], ApiKeys.demo)
        expect((json(reply) as ReadonlyArray<{ tranId: string }>).map((t) => t.tranId)).toEqual(["77"])
      }))

    it.effect("a taken name, a bad name or note, or a createdAt that is no time is refused, and nothing is stored", () =>
      Effect.gen(function*() {
        const service = yield* server
        const refused = (input: ReferenceServer.NewSubAccount) =>
          Effect.map(Effect.flip(service.createSubAccount(input)), (e) => [e._tag, e.reason, e.message])
        expect(yield* refused({ name: "sub001@broker.test" })).toEqual([
          "SubAccountRefused",
          "Taken",
          `sub-account sub001@broker.test exists already (created at ${
            new Date(start).toISOString()
          }): choose another name`
        ])
        expect(yield* refused({ name: "" })).toEqual([
          "SubAccountRefused",
          "Name",
          `a sub-account name must be 1 to 64 characters without control characters or surrounding spaces (a name the transfer queries can send), got ""`
        ])
        // The client refuses such a name in a list, and no transfer query could name it.
        expect((yield* refused({ name: " padded@broker.test" }))[1]).toBe("Name")
        expect((yield* refused({ name: "a".repeat(65) }))[1]).toBe("Name")
        expect((yield* refused({ name: "line\nbreak" }))[1]).toBe("Name")
        expect(yield* refused({ name: "noted", note: "n".repeat(201) })).toEqual([
          "SubAccountRefused",
          "Note",
          `the note of sub-account "noted" must be at most 200 characters without control characters`
        ])
        expect(yield* refused({ name: "early", createdAt: -1 })).toEqual([
          "SubAccountRefused",
          "CreatedAt",
          `createdAt of sub-account "early" must be a Unix ms time (an integer from 0), got -1`
        ])
        expect((yield* refused({ name: "early", createdAt: 1.5 }))[1]).toBe("CreatedAt")
        expect((yield* refused({ name: "early", createdAt: NaN }))[1]).toBe("CreatedAt")
        const stored = (yield* service.store.allSubAccounts()).map((s) => s.name)
        expect(stored.filter((name) => ["", "noted", "early"].includes(name) || name.includes("\n"))).toEqual([])
      }))
  }
)

describe("the sub-accounts a database file keeps", () => {
  const withDatabase = <A, E>(f: (database: string) => Effect.Effect<A, E>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-subs-"))),
      (dir) => f(Path.join(dir, "history.db")),
      (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
    )

  /** What a service started with `options` lists, in order, as [name, creation time]. */
  const listedBy = (options: ReferenceServer.Options) =>
    Effect.scoped(Effect.gen(function*() {
      const service = Context.get(yield* Layer.build(ReferenceServer.layer(options)), ReferenceServer.ReferenceServer)
      return (yield* listed(service, [["limit", "200"]])).data.map((s) => [s.subAccount, Number(s.timestamp)] as const)
    }))

  it.live(
    "a seeded file keeps its sub-accounts and those created later, whatever the next start's seed options",
    () =>
      withDatabase((database) =>
        Effect.gen(function*() {
          const seed = { seed: 5, transfers: 300, deposits: 0, subAccounts: 3, end, years: 1 }
          const first = yield* Effect.scoped(Effect.gen(function*() {
            const service = Context.get(
              yield* Layer.build(ReferenceServer.layer({ database, seed })),
              ReferenceServer.ReferenceServer
            )
            yield* service.createSubAccount({ name: "late@broker.test", createdAt: end + 1 })
            return (yield* listed(service, [["limit", "200"]])).data.map((s) => [s.subAccount, Number(s.timestamp)])
          }))
          expect(first).toEqual([...Seed.subAccountNames(3).map((n) => [n, start]), ["late@broker.test", end + 1]])
          // Seeded once: the second start keeps the history, so its own seed options do not apply.
          expect(yield* listedBy({ database, seed: { ...seed, subAccounts: 9, staggeredSubAccounts: true } })).toEqual(
            first
          )
          expect(yield* listedBy({ seed: undefined })).toEqual([])
        })
      ),
    30_000
  )

  it.live(
    "a history stored without sub-accounts lists the accounts its transfers name, created at the first",
    () =>
      withDatabase((database) =>
        Effect.gen(function*() {
          // A file written before sub-accounts were stored: the first migration only, transfers alone.
          yield* Effect.gen(function*() {
            yield* Migrator.make({})({
              loader: Migrator.fromRecord({ "0001_create_tables": Migrations.migrations["0001_create_tables"]! })
            })
            const store = yield* Store.make
            yield* store.insertTransfers([
              transferRow("1", 5_000, { toAccount: "b@broker.test" }),
              transferRow("2", 3_000, { toAccount: "a@broker.test" }),
              transferRow("3", 4_000, { fromAccount: "b@broker.test", toAccount: "c@broker.test" }),
              transferRow("4", 4_000, { fromAccount: "c@broker.test", toAccount: null }),
              transferRow("5", 1_000, { toAccount: null })
            ])
          }).pipe(Effect.provide(SqliteClient.layer({ filename: database })), Effect.scoped)
          const expected = [["a@broker.test", 3_000], ["b@broker.test", 4_000], ["c@broker.test", 4_000]]
          expect(yield* listedBy({ database })).toEqual(expected)
          // Stored at that start: the next start lists the same, and a seed option does not seed.
          expect(yield* listedBy({ database, seed: { seed: 1, transfers: 10, deposits: 0 } })).toEqual(expected)
        })
      ),
    30_000
  )
})
