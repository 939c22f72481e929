// Pending transfers that settle later: the pure rules (which status, when due, which options are
// wrong), the store's operations (settle by id in one transaction, the due ones through an index), and
// the service settling what is due as of each transfer request, only the status changing.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { ApiKeys, ReferenceServer, Store } from "../src/index.js"
import * as PendingSettlement from "../src/internal/PendingSettlement.js"
import { json, signedGet, transfersPath } from "./support/Requests.js"
import { transferRow } from "./support/Rows.js"
import { unlimited, withServer } from "./support/Server.js"

const hour = 3_600_000

describe("PendingSettlement, pure", () => {
  it("a transfer settles the same way every time, FAILED for about failedShare of the ids", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => String(10_000_000_000 + 7 * i))
    const failedAt = (share: number) => ids.filter((id) => PendingSettlement.settledStatus(id, share) === "FAILED")
    expect(failedAt(0)).toEqual([])
    expect(failedAt(1)).toEqual(ids)
    expect(failedAt(0.25).length).toBeGreaterThan(400)
    expect(failedAt(0.25).length).toBeLessThan(600)
    expect(failedAt(0.25)).toEqual(failedAt(0.25))
    // A larger share fails a superset: the draw is the id's, the share only its threshold.
    expect(failedAt(0.25).every((id) => failedAt(0.5).includes(id))).toBe(true)
  })

  it("is due `after` its timestamp; a duration that is none or a share outside 0..1 is a problem", () => {
    expect(PendingSettlement.dueBy({ after: "2 seconds" }, 10_000)).toBe(8_000)
    expect(PendingSettlement.problem({ after: 0, failedShare: 1 })).toBeUndefined()
    expect(PendingSettlement.problem({ after: "1 hour", failedShare: -0.1 })).toBe(
      "pendingSettlement.failedShare must be a probability from 0 to 1, got -0.1"
    )
    expect(PendingSettlement.problem({ after: "1 hour", failedShare: NaN })).toMatch(/failedShare must be/)
    expect(PendingSettlement.problem({ after: Infinity })).toMatch(/^pendingSettlement\.after must be a duration/)
  })
})

describe("the store's settlement operations", () => {
  const pending = (tranId: string, timestamp: number) => transferRow(tranId, timestamp, { status: "PENDING" })

  it.effect("settleTransfers changes the status only; an unknown id is a defect and changes nothing", () =>
    Effect.gen(function*() {
      const store = yield* Store.Store
      const rows = [pending("1", 1_000), pending("2", 2_000), transferRow("3", 3_000, { status: "FAILED" })]
      yield* store.insertTransfers(rows)
      expect(yield* store.pendingTransfers(1_999)).toEqual(["1"])
      expect(yield* store.pendingTransfers(5_000)).toEqual(["1", "2"])
      yield* store.settleTransfers([{ tranId: "1", status: "SUCCESS" }])
      expect(yield* store.allTransfers()).toEqual([{ ...rows[0]!, status: "SUCCESS" }, rows[1], rows[2]])
      const unknown = yield* Effect.exit(
        store.settleTransfers([{ tranId: "2", status: "FAILED" }, { tranId: "99", status: "SUCCESS" }])
      )
      expect(Exit.isFailure(unknown)).toBe(true)
      expect((yield* store.allTransfers()).map((t) => t.status)).toEqual(["SUCCESS", "PENDING", "FAILED"])
      expect(yield* store.pendingTransfers(5_000)).toEqual(["2"])
    }).pipe(Effect.provide(Store.layerSqlite(":memory:"))))

  it.effect("the due transfers are found through the partial index of pending transfers, not a scan", () =>
    Effect.gen(function*() {
      const store = yield* Store.Store
      expect(yield* store.explainPendingTransfers(1)).toEqual([
        "SEARCH transfers USING COVERING INDEX transfers_pending (timestamp<?)"
      ])
    }).pipe(Effect.provide(Store.layerSqlite(":memory:"))))
})

const query = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"], ["toAccount", "sub@x"]] as const

interface Answered {
  readonly tranId: string
  readonly status: string
  readonly timestamp: number
  readonly amount: string
}

const answered = (server: ReferenceServer.Service) =>
  Effect.map(signedGet(server.baseUrl, transfersPath, query, ApiKeys.demo), (reply) => {
    expect(reply.status).toBe(200)
    return (json(reply) as ReadonlyArray<Answered>).map((t) => [t.tranId, t.status, t.timestamp, t.amount])
  })

withServer({ pendingSettlement: { after: "1 hour", failedShare: 0.5 }, rateLimit: unlimited })(
  "a service whose pending transfers settle an hour after their time",
  (it) => {
    it.effect("answers the due ones settled (and stores them so), the others pending; ids and times unchanged", () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const now = Date.now()
        const ids = Array.from({ length: 20 }, (_, i) => String(500 + i))
        // Half are due (2 hours old), half are not (1 minute old: due an hour later than this test lasts).
        const rows = ids.map((id, i) =>
          transferRow(id, i < 10 ? now - 2 * hour + i : now - 60_000 + i, { status: "PENDING" })
        )
        yield* server.store.insertTransfers([...rows, transferRow("600", now - 3 * hour, { status: "FAILED" })])
        const settled = (id: string) => PendingSettlement.settledStatus(id, 0.5)
        const expected = [
          ...rows.map((r, i) => [r.tranId, i < 10 ? settled(r.tranId) : "PENDING", r.timestamp, r.amount] as const),
          ["600", "FAILED", now - 3 * hour, "1.00000000"] as const
        ].sort((a, b) => b[2] - a[2])
        expect(yield* answered(server)).toEqual(expected)
        const due = expected.filter(([id]) => ids.indexOf(id) < 10 && id !== "600").map(([, status]) => status)
        expect(new Set(due)).toEqual(new Set(["SUCCESS", "FAILED"]))
        // Stored as answered: the next request answers the same, and so does the store.
        expect(yield* answered(server)).toEqual(expected)
        const stored = yield* server.store.allTransfers({ toAccount: "sub@x" })
        expect(stored.map((t) => [t.tranId, t.status]).sort()).toEqual(expected.map(([id, s]) => [id, s]).sort())
        expect(yield* server.store.pendingTransfers(now)).toEqual(ids.slice(10))
      }))
  }
)

withServer({ seed: { seed: 2, transfers: 3000, deposits: 0, subAccounts: 3 }, rateLimit: unlimited })(
  "a service without a settlement",
  (it) => {
    it.effect("keeps pending transfers pending, the seeded ones too", () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const pendingBefore = yield* server.store.pendingTransfers(Date.now())
        expect(pendingBefore.length).toBeGreaterThan(0)
        yield* server.store.insertTransfers([transferRow("1", Date.now() - 10 * hour, { status: "PENDING" })])
        expect((yield* answered(server)).map(([, status]) => status)).toEqual(["PENDING"])
        const pendingAfter = yield* server.store.pendingTransfers(Date.now())
        expect([...pendingAfter].sort()).toEqual([...pendingBefore, "1"].sort())
      }))
  }
)

describe("a settlement option that is wrong", () => {
  it.effect("stops the start with a StartError naming it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Layer.build(ReferenceServer.layer({ pendingSettlement: { after: "1 hour", failedShare: 3 } }))
      )
      expect(error.reason).toBe("Options")
      expect(error.message).toBe(
        "invalid options: pendingSettlement.failedShare must be a probability from 0 to 1, got 3"
      )
    }).pipe(Effect.scoped))
})
