// `sync` without a list of sub-accounts: the service lists them, every stream is read from the later
// of --since and its sub-account's creation (no request for history before it, on the first run or
// any later one), its coverage is stored from there, and the summary says how many were listed and how
// many are new. `--dry-run` lists and estimates without a record fetched or a database created, and its
// estimate is a lower bound of what the run then costs. Every request is seen through a recording proxy.
import { Endpoint } from "@broker-history/domain"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cli, cliEnv, expectedDepositRows, expectedTransferRows, useReferenceServer } from "./support/Harness.js"
import type { Polled, Proxy } from "./support/Polls.js"
import { recordingProxy } from "./support/Polls.js"
import { readCheckpointRows, readTables } from "./support/Tables.js"

const day = 86_400_000
const subAccounts = 12
const { running, temp } = useReferenceServer({
  // Sub-accounts created one after another over the year; transfer windows of at most 30 days.
  seed: { seed: 53, transfers: 2500, deposits: 150, subAccounts, staggeredSubAccounts: true, years: 1 },
  maxWindow: { transfers: "30 days" }
})

let proxy: Proxy
beforeAll(async () => {
  proxy = await recordingProxy(running.server.baseUrl)
})
afterAll(() => proxy.close())

const env = (extra: Record<string, string> = {}) =>
  cliEnv(proxy.baseUrl, { BROKER_RATE_LIMIT: "2000", BROKER_TRANSFER_MAX_WINDOW: "30d", ...extra })
const args = (db: string) => ["sync", "--db", db, "--since", "1y", "--concurrency", "8"]

const created = async () =>
  new Map((await running.run(running.server.store.allSubAccounts())).map((s) => [s.name, s.createdAt]))

/** The transfer-history requests of a sub-account's streams that asked for history before its creation. */
const beforeCreation = (requests: ReadonlyArray<Polled>, createdAt: ReadonlyMap<string, number>) =>
  requests.filter((r) => {
    if (r.path !== Endpoint.transferHistory.path) return false
    const account = r.params.get("fromAccount") ?? r.params.get("toAccount")
    const start = Number(r.params.get("startTime"))
    return account !== null && start < createdAt.get(account)!
  })

/** The figure of `(N requests, …)` in a summary line. */
const requestsOf = (stdout: string) => Number(/\((\d+) requests, \d+ retries/.exec(stdout)?.[1])
/** The figure of `at least N requests` in a plan line. */
const estimateOf = (stdout: string) => Number(/at least (\d+) requests/.exec(stdout)?.[1])

describe("sync without a list of sub-accounts", () => {
  it(
    "every listed sub-account, each read from its creation; stored from there; a second run reads nothing before it",
    async () => {
      const db = Path.join(temp.dir, "discovered.db")
      const createdAt = await created()
      expect(createdAt.size).toBe(subAccounts)
      const from = proxy.requests.length
      const first = await cli(args(db), env())
      expect(first.stderr).toBe("")
      expect(first.code).toBe(0)
      const streams = 1 + 4 + subAccounts * 2 * 4
      expect(first.stdout).toContain(
        `plan: ${subAccounts} sub-accounts listed by the service, ${subAccounts} of them new to this database; ${streams} streams; at least `
      )
      expect(first.stdout).toMatch(new RegExp(`^synced ${streams} streams into `, "m"))
      // The list was read, and no stream asked for history from before its sub-account existed.
      expect(proxy.requests.slice(from).some((r) => r.path === Endpoint.subAccountList.path)).toBe(true)
      expect(beforeCreation(proxy.requests.slice(from), createdAt)).toEqual([])

      // Exactly the service's records of every route through the master, from a year back.
      const since = Date.now() - 365 * day
      const tables = await readTables(db)
      const transfers = expectedTransferRows(await running.run(running.server.store.allTransfers()), since)
      expect(transfers.length).toBeGreaterThan(100)
      // A record at the very start of the year may fall either side of the run's own --since.
      const near = (t: Record<string, unknown>) => Math.abs(Number(t.timestamp) - since) < 60_000
      expect(tables.transfers.filter((t) => !near(t))).toEqual(transfers.filter((t) => !near(t)))
      expect(tables.deposits.length).toBe(
        expectedDepositRows(await running.run(running.server.store.allDeposits()), since).length
      )

      // Every stream's coverage is stored, a sub-account's from its creation when that is after --since.
      const rows = await readCheckpointRows(db)
      expect(rows).toHaveLength(streams)
      for (const row of rows) {
        const [, , , fromAccount, toAccount] = JSON.parse(row.stream) as Array<string | null>
        const account = fromAccount ?? toAccount
        if (account === null || account === undefined) continue
        expect(row.covered_since, row.stream).toBe(Math.max(createdAt.get(account)!, row.covered_since!))
        if (createdAt.get(account)! > since + 60_000) expect(row.covered_since, row.stream).toBe(createdAt.get(account))
      }

      // A second run: nothing new, nothing backfilled, nothing read from before a creation, far fewer requests.
      const again = proxy.requests.length
      const second = await cli(args(db), env())
      expect(second.stderr).toBe("")
      expect(second.code).toBe(0)
      expect(second.stdout).toContain(
        `${subAccounts} sub-accounts listed by the service, 0 of them new to this database`
      )
      expect(second.stdout).not.toContain("backfilled")
      expect(beforeCreation(proxy.requests.slice(again), createdAt)).toEqual([])
      expect(requestsOf(second.stdout)).toBeLessThan(requestsOf(first.stdout) / 2)
      expect((await readTables(db)).transfers).toEqual(tables.transfers)
    },
    120_000
  )

  it(
    "--dry-run lists the sub-accounts and estimates a first run, without a record fetched or a database created; the run then costs at least that",
    async () => {
      const db = Path.join(temp.dir, "dry.db")
      const from = proxy.requests.length
      const dry = await cli([...args(db), "--dry-run"], env())
      expect(dry.stderr).toBe("")
      expect(dry.code).toBe(0)
      expect(Fs.existsSync(db)).toBe(false)
      const paths = new Set(proxy.requests.slice(from).map((r) => r.path))
      expect(paths.has(Endpoint.transferHistory.path) || paths.has(Endpoint.depositHistory.path)).toBe(false)
      const lines = dry.stdout.trimEnd().split("\n")
      expect(lines[0]).toBe(`the service lists ${subAccounts} sub-accounts`)
      expect(lines.filter((l) => /^sub-account sub\d{3}@broker\.test: created \S+Z, read from/.test(l))).toHaveLength(
        subAccounts
      )
      expect(dry.stdout).toMatch(
        /^plan: 12 sub-accounts listed by the service; 101 streams; at least \d+ requests, about /m
      )
      expect(lines.at(-1)).toBe(
        "dry run: no record was fetched and the database was not opened; this is a first run's estimate"
      )

      const run = await cli(args(db), env())
      expect(run.code).toBe(0)
      // The same plan, and a lower bound: the run's requests (its list pages included) are at least the estimate.
      expect(estimateOf(run.stdout)).toBe(estimateOf(dry.stdout))
      expect(requestsOf(run.stdout)).toBeGreaterThanOrEqual(estimateOf(dry.stdout))
    },
    120_000
  )

  it(
    "--list-interval: refused without --follow, with a list, or not longer than 0 (exit 2, nothing created)",
    async () => {
      const db = Path.join(temp.dir, "list-interval.db")
      for (
        const [extra, says] of [
          [["--list-interval", "1m"], "--list-interval needs --follow"],
          [
            ["--follow", "--list-interval", "1m", "--sub-accounts", "sub001@broker.test"],
            "--list-interval applies when"
          ],
          [["--follow", "--list-interval", "0s"], "--list-interval must be longer than 0"],
          [["--follow", "--list-interval", "soon"], "--list-interval: "],
          [["--dry-run", "--follow"], "--dry-run plans only and ends"]
        ] as const
      ) {
        const result = await cli([...args(db), ...extra], env())
        expect(result.code, extra.join(" ")).toBe(2)
        expect(result.stderr, extra.join(" ")).toContain(says)
      }
      expect(Fs.existsSync(db)).toBe(false)
    },
    60_000
  )

  it("a profile with subAccounts: all discovers; one with a list keeps it", async () => {
    const db = Path.join(temp.dir, "profiles.db")
    const file = Path.join(temp.dir, "profiles.yaml")
    Fs.writeFileSync(
      file,
      "profiles:\n" +
        "  - { name: everyone, apiKeyEnv: BROKER_API_KEY, secretKeyEnv: BROKER_SECRET_KEY, subAccounts: all }\n" +
        "  - { name: one, apiKeyEnv: BROKER_API_KEY, secretKeyEnv: BROKER_SECRET_KEY, subAccounts: [sub001@broker.test] }\n"
    )
    const result = await cli(["sync", "--db", db, "--profiles", file, "--since", "30d"], env())
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`profile everyone: plan: ${subAccounts} sub-accounts listed by the service`)
    expect(result.stdout).toMatch(/^profile one: plan: 13 streams; /m)
    const named = (rows: ReadonlyArray<{ readonly stream: string }>) =>
      new Set(
        rows.flatMap((r) => (JSON.parse(r.stream) as Array<unknown>).slice(3).filter((a) => typeof a === "string"))
      )
    expect(named(await readCheckpointRows(db, "everyone")).size).toBe(subAccounts)
    expect([...named(await readCheckpointRows(db, "one"))]).toEqual(["sub001@broker.test"])
  }, 60_000)
})
