import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { Seed, Store } from "../src/index.js"
import { transferRow } from "./support/Rows.js"

const withStore = <A, E>(effect: Effect.Effect<A, E, Store.Store>) =>
  effect.pipe(Effect.provide(Store.layerSqlite(":memory:")))

const newestFirst = (a: Store.TransferRow, b: Store.TransferRow) =>
  b.timestamp - a.timestamp || (BigInt(b.tranId) > BigInt(a.tranId) ? 1 : -1)

describe("Store", () => {
  // "No table scan" means: every step of every plan is a SEARCH through an index (a bounded range
  // lookup), none is a SCAN (a pass over the whole table or over a whole index), and no step sorts
  // in a temporary B-tree: the order comes from the index, so LIMIT/OFFSET stop early.
  const assertIndexedPlan = (plan: ReadonlyArray<string>, table: string) => {
    expect(plan.length).toBeGreaterThan(0)
    for (const step of plan) {
      expect(step).not.toMatch(/^SCAN /)
      expect(step).not.toMatch(/TEMP B-TREE/)
    }
    expect(plan.some((step) => new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX `).test(step))).toBe(true)
  }

  it.effect("EXPLAIN QUERY PLAN: every query the endpoints run searches an index, never scans, never sorts", () =>
    Effect.gen(function*() {
      const store = yield* Store.Store
      const sql = yield* SqlClient.SqlClient
      yield* Seed.seed({ seed: 3, transfers: 20_000, deposits: 5_000, end: 1_700_000_000_000 })
      // Plans are checked without statistics and again after ANALYZE, which may change the planner's choices.
      for (const analyzed of [false, true]) {
        if (analyzed) yield* sql`ANALYZE`
        // The transfer endpoint always pins both accounts (omitted = master = NULL) and both types.
        for (const fromAccount of [null, "sub001@broker.test"]) {
          for (const toAccount of [null, "sub002@broker.test"]) {
            for (const clientTranId of [undefined, "A".repeat(32)]) {
              for (const [startTime, endTime] of [[undefined, undefined], [1, undefined], [undefined, 2], [1, 2]]) {
                for (const page of [{ page: 1, limit: 500 }, { page: 7, limit: 3 }]) {
                  const plan = yield* store.explainTransferPage({
                    fromAccount,
                    toAccount,
                    fromAccountType: "SPOT",
                    toAccountType: "FUTURES",
                    clientTranId,
                    startTime,
                    endTime
                  }, page)
                  assertIndexedPlan(plan, "transfers")
                }
              }
            }
          }
        }
        // The deposit endpoint always has both time bounds (defaults filled in).
        for (const coin of [undefined, "USDT"]) {
          for (const status of [undefined, 5]) {
            const plan = yield* store.explainDepositPage({ coin, status, startTime: 1, endTime: 2 }, {
              page: 2,
              limit: 1000
            })
            assertIndexedPlan(plan, "deposits")
          }
        }
      }
    }).pipe(Effect.provide(Store.layer.pipe(Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))))))

  it.effect("the sub-account list reads its order from an index (no sort); a name is a key lookup", () =>
    Effect.gen(function*() {
      const store = yield* Store.Store
      yield* Seed.seed({ seed: 3, transfers: 0, deposits: 0, subAccounts: 200, staggeredSubAccounts: true })
      for (const page of [{ page: 1, limit: 10 }, { page: 7, limit: 200 }]) {
        const all = yield* store.explainSubAccountPage({}, page)
        expect(all.some((step) => /USING (COVERING )?INDEX sub_accounts_by_creation/.test(step))).toBe(true)
        expect(all.some((step) => /TEMP B-TREE/.test(step))).toBe(false)
        const one = yield* store.explainSubAccountPage({ name: "sub007@broker.test" }, page)
        expect(one.length).toBe(1)
        expect(one[0]).toMatch(/^SEARCH sub_accounts USING INDEX sqlite_autoindex_sub_accounts_1 \(name=\?\)/)
      }
    }).pipe(withStore))

  it.effect("sub-accounts: paged by creation time then name; a duplicate name is a defect and stores nothing", () =>
    withStore(Effect.gen(function*() {
      const store = yield* Store.Store
      const rows: ReadonlyArray<Store.SubAccountRow> = [
        { name: "c", note: "", createdAt: 2 },
        { name: "b", note: "two", createdAt: 1 },
        { name: "a", note: "", createdAt: 2 }
      ]
      yield* store.insertSubAccounts(rows)
      expect((yield* store.allSubAccounts()).map((s) => s.name)).toEqual(["b", "a", "c"])
      expect(yield* store.subAccountPage({}, { page: 2, limit: 2 })).toEqual([{ name: "c", note: "", createdAt: 2 }])
      expect(yield* store.subAccountPage({ name: "b" }, { page: 1, limit: 10 })).toEqual([rows[1]])
      const again = yield* Effect.exit(store.insertSubAccounts([{ name: "d", note: "", createdAt: 3 }, rows[0]!]))
      expect(Exit.isFailure(again)).toBe(true)
      expect((yield* store.allSubAccounts()).map((s) => s.name)).toEqual(["b", "a", "c"])
    })))

  it.effect(
    "pages over one filter are exact for every limit from 1 to 500 (ties at one ms, ids of several lengths)",
    () =>
      withStore(Effect.gen(function*() {
        const store = yield* Store.Store
        const rows: Array<Store.TransferRow> = []
        // 1003 rows over 40 distinct milliseconds: many ties; ids cross from 4 to 5 digits.
        for (let i = 0; i < 1003; i++) rows.push(transferRow(String(9000 + i * 7), 1_000 + (i * 13) % 40))
        yield* store.insertTransfers(rows)
        // A decoy with another route must never show up.
        yield* store.insertTransfers([transferRow("1", 1_010, { toAccount: null })])
        const expected = [...rows].sort(newestFirst).map((r) => r.tranId)
        const filter = { fromAccount: null, toAccount: "sub@x", fromAccountType: "SPOT", toAccountType: "FUTURES" }
        for (let limit = 1; limit <= 500; limit++) {
          const seen: Array<string> = []
          for (let page = 1;; page++) {
            const rowsOfPage = yield* store.transferPage(filter, { page, limit })
            seen.push(...rowsOfPage.map((r) => r.tranId))
            if (rowsOfPage.length < limit) break
          }
          expect(seen).toEqual(expected)
        }
      })),
    60_000
  )

  it.effect("live inserts and deposit updates are visible to the next query", () =>
    withStore(Effect.gen(function*() {
      const store = yield* Store.Store
      const deposits = Seed.deposits({ seed: 5, transfers: 0, deposits: 30, end: 1_700_000_000_000 })
      yield* store.insertDeposits(deposits)
      const target = deposits[10]!
      const key = { txId: target.txId, coin: target.coin, network: target.network, address: target.address }
      yield* store.updateDeposit(key, { status: 5, confirmTimes: "999" })
      const after = yield* store.allDeposits({
        coin: target.coin,
        startTime: target.insertTime,
        endTime: target.insertTime
      })
      const updated = after.find((d) => d.txId === target.txId && d.address === target.address)!
      expect([updated.status, updated.confirmTimes, updated.unlockConfirm]).toEqual([5, "999", target.unlockConfirm])
      expect((yield* store.allDeposits()).length).toBe(30)
      const unknown = yield* Effect.exit(store.updateDeposit({ ...key, txId: "nope" }, { status: 1 }))
      expect(Exit.isFailure(unknown) && Exit.causeOption(unknown)._tag === "Some").toBe(true)

      yield* store.insertTransfers([transferRow("9007199254740993", 5)])
      const [big] = yield* store.allTransfers({ toAccount: "sub@x" })
      // Beyond 2^53 the id still round-trips exactly: it is stored as an integer and read as text.
      expect(big!.tranId).toBe("9007199254740993")
      const duplicate = yield* Effect.exit(store.insertTransfers([transferRow("9007199254740993", 6)]))
      expect(Exit.isFailure(duplicate)).toBe(true)
      const notDigits = yield* Effect.exit(store.insertTransfers([transferRow("12a", 6)]))
      expect(Exit.isFailure(notDigits)).toBe(true)
      expect(yield* store.counts).toEqual({ transfers: 1, deposits: 30 })
    })))

  it.effect("API keys round-trip with their permissions", () =>
    withStore(Effect.gen(function*() {
      const store = yield* Store.Store
      yield* store.putKeys([{ apiKey: "a", secretKey: "s", permissions: ["SPOT_DEPOSIT_READ"] }])
      const found = yield* store.findKey("a")
      expect(found._tag === "Some" && found.value).toEqual({
        apiKey: "a",
        secretKey: "s",
        permissions: ["SPOT_DEPOSIT_READ"]
      })
      expect((yield* store.findKey("b"))._tag).toBe("None")
    })))
})
