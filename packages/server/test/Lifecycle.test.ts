import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import { get, json, signedGet, transfersPath } from "./support/Requests.js"
import { transferRow } from "./support/Rows.js"

const startError = (exit: Exit.Exit<unknown, ReferenceServer.StartError>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined

describe("server lifecycle", () => {
  it.live("a port in use fails the layer with StartError (Listen)", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.scoped(Effect.gen(function*() {
        const first = yield* Layer.build(ReferenceServer.layer())
        const { port } = yield* Effect.provide(ReferenceServer.ReferenceServer, first)
        return yield* Effect.exit(Layer.build(ReferenceServer.layer({ port })))
      }))
      expect(startError(exit)?.reason).toBe("Listen")
    }))

  it.live("a database that cannot be opened fails the layer with StartError (Database)", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        Effect.scoped(Layer.build(ReferenceServer.layer({ database: "/nonexistent-dir/x/history.db" })))
      )
      expect(startError(exit)?.reason).toBe("Database")
    }))

  it.live("a database file keeps its history across restarts and is not seeded twice", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
      const database = Path.join(dir, "history.db")
      const options: ReferenceServer.Options = { database, seed: { seed: 1, transfers: 400, deposits: 40 } }
      const firstRun = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* Effect.provide(
          ReferenceServer.ReferenceServer,
          yield* Layer.build(ReferenceServer.layer(options))
        )
        const route = [["fromAccountType", "SPOT"], ["toAccountType", "SPOT"]] as const
        const reply = yield* signedGet(server.baseUrl, transfersPath, route, ApiKeys.demo)
        return { counts: yield* server.store.counts, body: json(reply) }
      }))
      expect(firstRun.counts).toEqual({ transfers: 400, deposits: 40 })
      const secondRun = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* Effect.provide(
          ReferenceServer.ReferenceServer,
          yield* Layer.build(ReferenceServer.layer(options))
        )
        const route = [["fromAccountType", "SPOT"], ["toAccountType", "SPOT"]] as const
        const reply = yield* signedGet(server.baseUrl, transfersPath, route, ApiKeys.demo)
        expect((yield* get(server.baseUrl, "/api/v3/ping")).status).toBe(200)
        return { counts: yield* server.store.counts, body: json(reply) }
      }))
      expect(secondRun).toEqual(firstRun)
    }).pipe(Effect.scoped))

  it.live("a configured transfer window: longer ranges are refused, omitted bounds default to the last window", () =>
    Effect.scoped(Effect.gen(function*() {
      const layer = ReferenceServer.layer({
        maxWindow: { transfers: "1 day", deposits: "1 hour" },
        seed: { seed: 2, transfers: 3000, deposits: 10 }
      })
      const server = yield* Effect.provide(ReferenceServer.ReferenceServer, yield* Layer.build(layer))
      const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]] as const
      const day = 86_400_000
      // Two master → master transfers of that route: one inside the last day, one just before it.
      // The answer without bounds must hold the first and not the second (an empty answer fails).
      const inserted = Date.now()
      const inside = transferRow("90000000000001", inserted - 3_600_000, { toAccount: null })
      const before = transferRow("90000000000002", inserted - day - 3_600_000, { toAccount: null })
      yield* server.store.insertTransfers([inside, before])
      const tooLong = yield* signedGet(server.baseUrl, transfersPath, [...route, ["startTime", "0"], [
        "endTime",
        String(day + 1)
      ]], ApiKeys.demo)
      expect([tooLong.status, (json(tooLong) as { code: number }).code]).toEqual([400, 33333])
      const exact = yield* signedGet(server.baseUrl, transfersPath, [...route, ["startTime", "0"], [
        "endTime",
        String(day)
      ]], ApiKeys.demo)
      expect(exact.status).toBe(200)
      const bare = yield* signedGet(server.baseUrl, transfersPath, route, ApiKeys.demo)
      expect(bare.status).toBe(200)
      const now = Date.now()
      const records = json(bare) as Array<{ tranId: number | string; timestamp: number }>
      const ids = records.map((r) => String(r.tranId))
      expect(ids).toContain(inside.tranId)
      expect(ids).not.toContain(before.tranId)
      for (const record of records) {
        expect(record.timestamp, `${record.tranId}`).toBeGreaterThanOrEqual(now - day - 5000)
      }
      const depositsTooLong = yield* signedGet(
        server.baseUrl,
        "/api/v3/broker/capital/deposit/subHisrec",
        [["startTime", String(now - 2 * 3_600_000)], ["endTime", String(now)]],
        ApiKeys.demo
      )
      expect((json(depositsTooLong) as { code: number }).code).toBe(33333)
    })))
})
