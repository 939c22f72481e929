import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { Seed, Store } from "../src/index.js"

const end = 1_700_000_000_000
const options: Seed.SeedOptions = { seed: 11, transfers: 20_000, deposits: 5_000, end, years: 2 }
const year = 365 * 24 * 60 * 60 * 1000

describe("Seed", () => {
  it("is deterministic: the same seed gives the same rows, another seed other rows", () => {
    expect(Seed.transfers(options)).toEqual(Seed.transfers(options))
    expect(Seed.deposits(options)).toEqual(Seed.deposits(options))
    expect(Seed.transfers({ ...options, seed: 12 })).not.toEqual(Seed.transfers(options))
    expect(Seed.deposits({ ...options, seed: 12 })).not.toEqual(Seed.deposits(options))
  })

  it("transfers cover every route, account-type pair and status, with ties, client ids and varied amounts", () => {
    const rows = Seed.transfers(options)
    expect(rows.length).toBe(20_000)
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["SUCCESS", "FAILED", "PENDING"]))
    const routes = new Set(
      rows.map((r) =>
        `${r.fromAccount === null ? "master" : "sub"}>${r.toAccount === null ? "master" : "sub"}:`
        + `${r.fromAccountType}>${r.toAccountType}`
      )
    )
    for (const from of ["master", "sub"]) {
      for (const to of ["master", "sub"]) {
        for (const types of ["SPOT>SPOT", "SPOT>FUTURES", "FUTURES>SPOT", "FUTURES>FUTURES"]) {
          expect(routes.has(`${from}>${to}:${types}`)).toBe(true)
        }
      }
    }
    expect(new Set(rows.flatMap((r) => [r.fromAccount, r.toAccount]).filter((a) => a !== null)).size).toBe(40)
    expect(rows.every((r) => r.fromAccount === null || r.fromAccount !== r.toAccount)).toBe(true)
    const ids = rows.map((r) => r.tranId)
    expect(new Set(ids).size).toBe(rows.length)
    expect(ids.every((id) => /^[1-9][0-9]*$/.test(id))).toBe(true)
    expect(new Set(ids.map((id) => id.length))).toEqual(new Set([10, 11]))
    // Ascending, spread over the span, with several records at one millisecond.
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.timestamp).toBeGreaterThanOrEqual(rows[i - 1]!.timestamp)
    expect(rows[0]!.timestamp).toBeGreaterThanOrEqual(end - 2 * year)
    expect(rows[0]!.timestamp).toBeLessThan(end - 2 * year + 30 * 24 * 3600 * 1000)
    expect(rows[rows.length - 1]!.timestamp).toBeLessThanOrEqual(end)
    const perMillisecond = new Map<number, number>()
    for (const r of rows) perMillisecond.set(r.timestamp, (perMillisecond.get(r.timestamp) ?? 0) + 1)
    expect([...perMillisecond.values()].filter((n) => n > 1).length).toBeGreaterThan(100)
    // A tie across the 10 -> 11 digit boundary, where text order and numeric order disagree.
    const crossing = rows.findIndex((r) => r.tranId.length === 11)
    expect(rows[crossing]!.timestamp).toBe(rows[crossing - 1]!.timestamp)
    const clientIds = rows.filter((r) => r.clientTranId !== null).map((r) => r.clientTranId!)
    expect(clientIds.length).toBeGreaterThan(rows.length / 5)
    expect(clientIds.length).toBeLessThan(rows.length)
    expect(clientIds.every((id) => /^[A-Za-z0-9]{32}$/.test(id))).toBe(true)
    expect(rows.every((r) => /^\d+(\.\d+)?$/.test(r.amount))).toBe(true)
    expect(rows.some((r) => /\.\d*0$/.test(r.amount))).toBe(true)
    expect(new Set(rows.map((r) => r.amount.split(".")[1]?.length ?? 0)).size).toBeGreaterThan(4)
    expect(new Set(rows.map((r) => r.asset)).size).toBeGreaterThan(5)
  })

  it("deposits cover all 12 status codes, networks, memos and address tags, and multi-output transactions", () => {
    const rows = Seed.deposits(options)
    expect(rows.length).toBe(5_000)
    expect(new Set(rows.map((d) => d.status))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))
    expect(new Set(rows.map((d) => `${d.coin}/${d.network}`)).size).toBeGreaterThan(8)
    const memos = rows.filter((d) => d.memo !== null)
    expect(memos.length).toBeGreaterThan(0)
    expect(memos.every((d) => d.addressTag === d.memo && d.address.endsWith(":" + d.memo))).toBe(true)
    expect(rows.some((d) => d.memo === null && d.addressTag === null)).toBe(true)
    const identities = rows.map((d) => JSON.stringify([d.txId, d.coin, d.network, d.address]))
    expect(new Set(identities).size).toBe(rows.length)
    expect(new Set(rows.map((d) => d.txId)).size).toBeLessThan(rows.length)
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.insertTime).toBeGreaterThanOrEqual(rows[i - 1]!.insertTime)
    expect(rows.every((d) => /^\d+$/.test(d.unlockConfirm) && /^\d+$/.test(d.confirmTimes))).toBe(true)
    expect(rows.every((d) => d.status !== 5 || d.confirmTimes === d.unlockConfirm)).toBe(true)
  })

  it("without the new options, the records are exactly those seeded before sub-accounts had creation times", () => {
    // Digests of the records as the seed drew them before `staggeredSubAccounts` existed: tests and the
    // bench compare against seeded histories, so the default draws must never change.
    const digest = (o: Seed.SeedOptions) =>
      createHash("sha256").update(JSON.stringify([Seed.transfers(o), Seed.deposits(o)])).digest("hex")
    expect(digest(options)).toBe("142a0afa588cacc3802bf7bbc2b51c0545beaa1c4ba063138c7c0dfa28bbc1eb")
    const small = { seed: 3, transfers: 3000, deposits: 100, end, years: 0.2, subAccounts: 5 }
    expect(digest(small)).toBe("46d04e3d1737927c088307b06142c4ccd87651f1f7014059c9504984660733c7")
    expect(digest({ ...small, staggeredSubAccounts: false })).toBe(digest(small))
  })

  it("sub-accounts: all created at the history's start by default", () => {
    expect(Seed.subAccounts(options)).toEqual(
      Seed.subAccountNames(40).map((name) => ({ name, note: "", createdAt: end - 2 * year }))
    )
    expect(Seed.subAccounts({ ...options, subAccounts: 1 }).map((s) => s.name)).toEqual(Seed.subAccountNames(2))
  })

  it("staggered: sub-accounts created one after another over the span, and no transfer names one before its creation", () => {
    const staggered = { ...options, subAccounts: 10, staggeredSubAccounts: true }
    const subs = Seed.subAccounts(staggered)
    const start = end - 2 * year
    expect(subs.map((s) => s.name)).toEqual(Seed.subAccountNames(10))
    expect(subs.map((s) => s.createdAt)).toEqual(
      [0, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => start + Math.floor(2 * year * k / 10))
    )
    const createdAt = new Map(subs.map((s) => [s.name, s.createdAt]))
    const rows = Seed.transfers(staggered)
    let named = 0
    for (const row of rows) {
      for (const account of [row.fromAccount, row.toAccount]) {
        if (account === null) continue
        named++
        expect(row.timestamp).toBeGreaterThanOrEqual(createdAt.get(account)!)
      }
      expect(row.fromAccount === null || row.fromAccount !== row.toAccount).toBe(true)
    }
    expect(named).toBeGreaterThan(rows.length / 2)
    // Every sub-account takes part, the last ones only late in the history.
    const firstNamed = new Map<string, number>()
    for (const row of rows) {
      for (const account of [row.fromAccount, row.toAccount]) {
        if (account !== null && !firstNamed.has(account)) firstNamed.set(account, row.timestamp)
      }
    }
    expect([...firstNamed.keys()].sort()).toEqual(Seed.subAccountNames(10))
    expect(firstNamed.get("sub010@broker.test")!).toBeGreaterThanOrEqual(start + Math.floor(2 * year * 8 / 10))
    // The option changes who the transfers name, nothing else of the draws.
    const plain = Seed.transfers({ ...options, subAccounts: 10 })
    const rest = (r: Store.TransferRow) => ({
      ...r,
      fromAccount: r.fromAccount === null,
      toAccount: r.toAccount === null
    })
    expect(rows.map(rest)).toEqual(plain.map(rest))
    expect(Seed.deposits(staggered)).toEqual(Seed.deposits({ ...options, subAccounts: 10 }))
  })

  it.effect("seeds the sub-accounts into the store with the records", () =>
    Effect.gen(function*() {
      const seeded = { seed: 5, transfers: 500, deposits: 10, end, subAccounts: 4, staggeredSubAccounts: true }
      yield* Seed.seed(seeded)
      const store = yield* Store.Store
      expect(yield* store.allSubAccounts()).toEqual(Seed.subAccounts(seeded))
      expect(yield* store.counts).toEqual({ transfers: 500, deposits: 10 })
    }).pipe(Effect.provide(Store.layerSqlite(":memory:"))))

  it.effect("seeds 100,000 transfers and 20,000 deposits into an in-memory store", () =>
    Effect.gen(function*() {
      yield* Seed.seed({ seed: 42, transfers: 100_000, deposits: 20_000 })
      const store = yield* Store.Store
      expect(yield* store.counts).toEqual({ transfers: 100_000, deposits: 20_000 })
    }).pipe(Effect.provide(Store.layerSqlite(":memory:"))), 60_000)
})
