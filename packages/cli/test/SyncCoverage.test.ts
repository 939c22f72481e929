// `sync` and the range each stream covers: a first run's default range, an earlier --since that
// backfills what is missing (once, killed or not), a database of the first schema, and a summary
// that says what was not read.
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { day, expectTablesFrom, killDuringBackfill, syncSince, year } from "./support/Coverage.js"
import { cli, cliEnv, useReferenceServer } from "./support/Harness.js"
import { subAccounts } from "./support/Scenario.js"
import { execute, legacyCopy, readCheckpointRows, readTables } from "./support/Tables.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 17, transfers: 3000, deposits: 1500, subAccounts: subAccounts.length }
})
// Fixed instants: the boundaries of every range are exact, whatever time each run starts.
const t0 = Date.now()
const oneYear = t0 - year
const threeYears = t0 - 3 * year
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const fast = () => cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })

describe("sync: covered ranges", () => {
  it("an earlier --since backfills the missing range once and says so; a later one forgets nothing", async () => {
    const db = Path.join(temp.dir, "backfill.db")
    const first = await cli(syncSince(db, String(oneYear)), fast())
    expect(first.stderr).toBe("")
    expect(first.code).toBe(0)
    expect(first.stdout).not.toContain("backfilled")
    await expectTablesFrom(running, db, oneYear)
    const rows = await readCheckpointRows(db)
    expect(rows.length).toBeGreaterThan(subAccounts.length)
    for (const row of rows) expect(row.covered_since).toBe(oneYear)

    const second = await cli(syncSince(db, String(threeYears)), fast())
    expect(second.stderr).toBe("")
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`backfilled ${rows.length} streams from ${date(threeYears)}`)
    const tables = await expectTablesFrom(running, db, threeYears)
    // The seed spans two years: the backfill found records.
    expect(tables.transfers.filter((t) => Number(t.timestamp) < oneYear).length).toBeGreaterThan(0)
    expect(tables.deposits.filter((d) => Number(d.insert_time) < oneYear).length).toBeGreaterThan(0)
    for (const row of await readCheckpointRows(db)) {
      expect(row.covered_since).toBe(threeYears)
      expect(row.backfill_since).toBe(null)
    }

    // Once: the same --since again, or a later one, backfills nothing and drops nothing.
    for (const since of [threeYears, oneYear]) {
      const again = await cli(syncSince(db, String(since)), fast())
      expect(again.code).toBe(0)
      expect(again.stdout).not.toContain("backfilled")
      await expectTablesFrom(running, db, threeYears)
      for (const row of await readCheckpointRows(db)) expect(row.covered_since).toBe(threeYears)
    }
  }, 120_000)

  it(
    "a first run without --since reads the whole transfer history and deposits one year back, and says what it left out",
    async () => {
      const db = Path.join(temp.dir, "default.db")
      const result = await cli(syncSince(db, undefined), fast())
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      const rows = await readCheckpointRows(db)
      const deposits = rows.find((r) => r.stream === "[\"deposits\"]")!
      // One year back from the run's start: between the test's start and now.
      expect(deposits.covered_since!).toBeGreaterThanOrEqual(oneYear)
      expect(deposits.covered_since!).toBeLessThanOrEqual(Date.now() - year)
      for (const row of rows.filter((r) => r !== deposits)) expect(row.covered_since).toBe(0)
      await expectTablesFrom(running, db, 0, deposits.covered_since!)
      expect(result.stdout).toContain(`not fetched: deposits before ${date(deposits.covered_since!)}`)
      expect(result.stdout).toMatch(/pass an earlier --since/)
      // Four sub-accounts: 4 × 3 ordered sub→sub pairs, none of them read without --pairs.
      expect(result.stdout).toContain(
        "sub→sub transfers are not read: 12 ordered sub-account pairs × 4 account-type pairs not covered; list them with --pairs FILE"
      )
    },
    120_000
  )

  it(
    "a database of the first schema migrates, keeps its rows, and re-reads each stream once from --since",
    async () => {
      const current = Path.join(temp.dir, "current.db")
      const first = await cli(syncSince(current, String(oneYear)), fast())
      expect(first.code).toBe(0)
      const legacy = Path.join(temp.dir, "legacy.db")
      await legacyCopy(current, legacy)
      // A row the service does not have: the migration must keep what is stored.
      await execute(legacy, (sql) => [
        sql`INSERT INTO transfers ${
          sql.insert({
            tran_id: "legacy-marker",
            client_tran_id: "",
            from_account: "a",
            to_account: "b",
            asset: "USDT",
            amount: "1.00",
            from_account_type: "SPOT",
            to_account_type: "SPOT",
            from_symbol: "",
            to_symbol: "",
            status: "SUCCESS",
            timestamp: 1
          })
        }`
      ])
      const streams = (await readCheckpointRows(current)).length

      const result = await cli(syncSince(legacy, String(oneYear)), fast())
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      // Without a covered range a stream counts as covered from its checkpoint only: read once from --since.
      expect(result.stdout).toContain(`backfilled ${streams} streams from ${date(oneYear)}`)
      const tables = await readTables(legacy)
      expect(tables.transfers.some((t) => t.tran_id === "legacy-marker")).toBe(true)
      await execute(legacy, (sql) => [sql`DELETE FROM transfers WHERE tran_id = 'legacy-marker'`])
      await expectTablesFrom(running, legacy, oneYear)
      for (const row of await readCheckpointRows(legacy)) expect(row.covered_since).toBe(oneYear)

      const again = await cli(syncSince(legacy, String(oneYear)), fast())
      expect(again.code).toBe(0)
      expect(again.stdout).not.toContain("backfilled")
    },
    120_000
  )

  for (const seed of [1, 2]) {
    it(
      `kill -9 during a backfill (seed ${seed}): no range is claimed before its rows are stored; a restart completes it`,
      async () => {
        const db = Path.join(temp.dir, `backfill-killed-${seed}.db`)
        await killDuringBackfill(running, db, seed, oneYear, threeYears)
      },
      180_000
    )
  }

  it("the summary says which transfers the plan does not read", async () => {
    // An empty list: the master's own transfers only, and how to name more.
    const db = Path.join(temp.dir, "plan.db")
    const none = await cli(["sync", "--db", db, "--sub-accounts", "", "--since", String(t0 - 30 * day)], fast())
    expect(none.code).toBe(0)
    expect(none.stdout).toContain(
      "only the master account's own transfers are read; name sub-accounts with --sub-accounts or --sub-accounts-file, or list pairs with --pairs FILE"
    )
    // No list: the sub-accounts the service lists, and no request to name them by hand.
    const listed = await cli(["sync", "--db", db, "--since", String(t0 - 30 * day)], fast())
    expect(listed.code).toBe(0)
    const n = subAccounts.length
    expect(listed.stdout).toContain(
      `sub→sub transfers are not read: ${n * (n - 1)} ordered pairs of the ${n} sub-accounts the service listed × 4 ` +
        "account-type pairs (a transfer between two sub-accounts is read only for a pair a pairs file names)"
    )
    expect(listed.stdout).not.toContain("--sub-accounts")
  }, 60_000)
})
