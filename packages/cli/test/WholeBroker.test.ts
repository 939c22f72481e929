// Issue 22's acceptance: the whole broker in one command. Against the reference service with 200
// sub-accounts created one after another, the futures account spelled FUTURE and transfer windows of
// at most 30 days, `sync --account-types SPOT,FUTURE --since 1y` with no list stores every record of
// every route through the master exactly once; then a following run picks up a sub-account created
// while it runs, with its history from its creation, while the other streams keep following.
import { Endpoint } from "@broker-history/domain"
import type { Store } from "@broker-history/server"
import { Effect } from "effect"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { cli, cliEnv, expectedTransferRows, spawn, until, useReferenceServer } from "./support/Harness.js"
import { recordingProxy } from "./support/Polls.js"
import { readTables } from "./support/Tables.js"

const day = 86_400_000
const subAccounts = 200
const { running, temp } = useReferenceServer({
  // Three months of history over 200 sub-accounts created one after another (a year of --since then
  // reads the master's own streams and the deposits over the whole year, each sub-account's from its
  // creation), small enough for a test on two cores.
  seed: { seed: 67, transfers: 6000, deposits: 200, subAccounts, staggeredSubAccounts: true, years: 0.25 },
  futuresAccountType: "FUTURE",
  maxWindow: { transfers: "30 days" }
})

const env = (baseUrl: string) => cliEnv(baseUrl, { BROKER_RATE_LIMIT: "10000", BROKER_TRANSFER_MAX_WINDOW: "30d" })
const args = (
  db: string
) => ["sync", "--db", db, "--account-types", "SPOT,FUTURE", "--since", "1y", "--concurrency", "32"]

/** Every transfer of every route through the master, as the sync stores it, from `since`. */
const expected = async (since: number) =>
  expectedTransferRows(await running.run(running.server.store.allTransfers()), since)

/** A transfer of the new sub-account, `hours` after its creation. */
const transferOf = (n: number, sub: string, createdAt: number, toSub: boolean): Store.TransferRow => ({
  tranId: String(95_000_000_000 + n),
  clientTranId: null,
  fromAccount: toSub ? null : sub,
  toAccount: toSub ? sub : null,
  asset: "USDT",
  amount: `${n}.50000000`,
  fromAccountType: toSub ? "SPOT" : "FUTURE",
  toAccountType: toSub ? "FUTURE" : "SPOT",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: createdAt + n * 3_600_000
})

describe("the whole broker", () => {
  it(
    "200 sub-accounts with no list: every record once; following, a sub-account created meanwhile is read from its creation",
    async () => {
      const db = Path.join(temp.dir, "broker.db")
      const first = await cli(args(db), env(running.server.baseUrl), 120_000)
      expect(first.stderr).toBe("")
      expect(first.code).toBe(0)
      const streams = 1 + 4 + subAccounts * 2 * 4
      expect(first.stdout).toContain(
        `plan: ${subAccounts} sub-accounts listed by the service, ${subAccounts} of them new`
      )
      expect(first.stdout).toMatch(new RegExp(`^synced ${streams} streams into `, "m"))
      // Every record of the service's routes through the master, once (the table's key is the tranId).
      const since = Date.now() - 365 * day
      const stored = await readTables(db)
      const service = await expected(since)
      expect(service.length).toBeGreaterThan(1000)
      expect(stored.transfers).toEqual(service)
      expect(stored.transfers.some((t) => t.to_account_type === "FUTURE")).toBe(true)

      // Following, with the list read again every second, through a proxy that records every request.
      const proxy = await recordingProxy(running.server.baseUrl)
      try {
        const child = spawn(
          [...args(db), "--follow", "--interval", "10s", "--list-interval", "1s"],
          env(proxy.baseUrl),
          120_000
        )
        await until(() => child.stdout().includes("caught up"), 60_000, "the catch-up")
        // A sub-account created three days ago, and transfers of it since.
        const sub = "sub201@broker.test"
        const createdAt = Date.now() - 3 * day
        await running.run(
          Effect.orDie(running.server.createSubAccount({ name: sub, note: "created while following", createdAt }))
        )
        const history = [1, 2, 3, 4, 5, 6].map((n) => transferOf(n, sub, createdAt, n % 2 === 1))
        await running.run(running.server.store.insertTransfers(history))
        // One sub-account of the service's own, already followed, gets a new transfer too.
        const late = { ...transferOf(7, "sub003@broker.test", 0, true), timestamp: Date.now() - 60_000 }
        await running.run(running.server.store.insertTransfers([late]))
        const ids = [...history, late].map((t) => t.tranId)
        await until(
          async () => {
            const have = new Set((await readTables(db)).transfers.map((t) => String(t.tran_id)))
            return ids.every((id) => have.has(id))
          },
          60_000,
          "the new sub-account's transfers and the late one"
        )
        expect(child.stdout()).toMatch(
          /Z 1 new sub-account \(sub201@broker\.test\): reading 8 new streams from their creation, then following them with the others/
        )
        child.process.kill("SIGTERM")
        const done = await child.done
        expect(done.stderr).toBe("")
        expect(done.code).toBe(0)
        // The new sub-account's streams never asked for history from before its creation.
        const ofSub = proxy.requests.filter((r) =>
          r.path === Endpoint.transferHistory.path &&
          (r.params.get("fromAccount") === sub || r.params.get("toAccount") === sub)
        )
        expect(ofSub.length).toBeGreaterThan(0)
        for (const r of ofSub) expect(Number(r.params.get("startTime"))).toBeGreaterThanOrEqual(createdAt)
        // No storm of server-time requests: the clock is read when the first streams start (at most one
        // per stream read at once), not per stream.
        expect(proxy.requests.filter((r) => r.path === Endpoint.timePath).length).toBeLessThanOrEqual(32)
      } finally {
        await proxy.close()
      }
      // Every record once, the new sub-account's included.
      const final = await readTables(db)
      expect(final.transfers).toEqual(await expected(since))
    },
    240_000
  )
})
