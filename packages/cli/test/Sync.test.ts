// `sync` into SQLite end to end: the CLI as a child process against the reference service (in this
// process, so the test can change its data while the CLI runs).
import { Endpoint } from "@broker-history/domain"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { cli, cliEnv, spawn, until, useReferenceServer } from "./support/Harness.js"
import type { Polled } from "./support/Polls.js"
import { recordingProxy } from "./support/Polls.js"
import {
  expectTablesEqualService,
  killAndRestart,
  lateTransfer,
  recentDeposit,
  subAccounts,
  syncArgs
} from "./support/Scenario.js"
import { readTables } from "./support/Tables.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 11, transfers: 3000, deposits: 1500, subAccounts: subAccounts.length }
})

describe("sync into SQLite", () => {
  it("a first run writes exactly the service's data; a second run changes nothing", async () => {
    const db = Path.join(temp.dir, "first.db")
    const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
    const first = await cli(syncArgs(db), env)
    expect(first.stderr).toBe("")
    expect(first.code).toBe(0)
    const tables = await expectTablesEqualService(running, db)
    // One checkpoint per stream that had records; each is valid JSON { time, ids }.
    expect(tables.checkpoints.length).toBeGreaterThan(subAccounts.length)
    for (const c of tables.checkpoints) expect(JSON.parse(c.checkpoint)).toMatchObject({ time: expect.any(Number) })
    const second = await cli(syncArgs(db), env)
    expect(second.code).toBe(0)
    expect((await readTables(db)).transfers).toEqual(tables.transfers)
  }, 60_000)

  for (const seed of [1, 2, 3]) {
    it(`kill -9 at random points (seed ${seed}), restart: no gap, no duplicate, no lost update`, async () => {
      const db = Path.join(temp.dir, `killed-${seed}.db`)
      const killedAt = await killAndRestart(running, db, seed, 2)
      expect(killedAt).toHaveLength(2)
      expect(killedAt.some((k) => k.includes("killed")), killedAt.join("; ")).toBe(true)
    }, 120_000)
  }

  it("--pairs: explicit pairs (sub→sub included) and nothing else", async () => {
    const db = Path.join(temp.dir, "pairs.db")
    const file = Path.join(temp.dir, "pairs.txt")
    Fs.writeFileSync(file, `# explicit pairs\n${subAccounts[0]} ${subAccounts[1]}\n- ${subAccounts[2]} SPOT FUTURES\n`)
    const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
    const result = await cli(["sync", "--db", db, "--pairs", file, "--since", "3y"], env)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const all = await running.run(running.server.store.allTransfers())
    const expected = all.filter((t) =>
      (t.fromAccount === subAccounts[0] && t.toAccount === subAccounts[1]) ||
      (t.fromAccount === null && t.toAccount === subAccounts[2] && t.fromAccountType === "SPOT" &&
        t.toAccountType === "FUTURES")
    ).map((t) => t.tranId).sort()
    expect(expected.length).toBeGreaterThan(0)
    expect((await readTables(db)).transfers.map((t) => t.tran_id).sort()).toEqual(expected)
    // The pairs are the plan: nothing is reported as left out of it.
    expect(result.stdout).not.toContain("not read")
  }, 60_000)

  it("bad --db, bad --pairs, conflicting flags → exit 2 or 1 with one sentence", async () => {
    const env = cliEnv(running.server.baseUrl)
    const noDir = await cli(["sync", "--db", Path.join(temp.dir, "no", "such", "dir.db")], env)
    expect(noDir.code).toBe(1)
    expect(noDir.stderr).toMatch(/^broker-history: cannot open the SQLite database .*check --db/)
    const both = await cli([
      "sync",
      "--db",
      Path.join(temp.dir, "x.db"),
      "--sub-accounts",
      "a",
      "--sub-accounts-file",
      "f"
    ], env)
    expect(both.code).toBe(2)
    const file = Path.join(temp.dir, "bad-pairs.txt")
    Fs.writeFileSync(file, "a b c\n")
    const badPairs = await cli(["sync", "--db", Path.join(temp.dir, "x.db"), "--pairs", file], env)
    expect(badPairs.code).toBe(2)
    expect(badPairs.stderr).toContain("line 1")
    const badInterval = await cli(["sync", "--db", Path.join(temp.dir, "x.db"), "--follow", "--interval", "soon"], env)
    expect(badInterval.code).toBe(2)
    // A command line that is refused creates no database.
    expect(Fs.existsSync(Path.join(temp.dir, "x.db"))).toBe(false)
  }, 60_000)

  it(
    "--follow picks up an inserted record and a changed deposit status at the next poll of their streams; SIGTERM exits 0",
    async () => {
      const db = Path.join(temp.dir, "follow.db")
      const now = Date.now()
      const deposit = recentDeposit(777, now)
      await running.run(running.server.store.insertDeposits([deposit]))
      // The CLI reads through a proxy that can hold its requests back: which poll brought a change in
      // is observed, not how long it took.
      const proxy = await recordingProxy(running.server.baseUrl)
      try {
        const env = cliEnv(proxy.baseUrl, { BROKER_RATE_LIMIT: "200" })
        const child = spawn([...syncArgs(db), "--follow", "--interval", "2s"], env, 120_000)
        await until(() => child.stdout().includes("caught up"), 60_000, "the catch-up")
        await expectTablesEqualService(running, db)

        // A late record: a minute old, inside the settlement window every poll re-reads.
        const transfer = lateTransfer(777, Date.now() - 60_000)
        // The transfer's stream (master → its sub-account, SPOT → FUTURES) and the deposit stream.
        const ofTransferStream = (r: Polled) =>
          r.path === Endpoint.transferHistory.path && r.params.get("toAccount") === transfer.toAccount &&
          !r.params.has("fromAccount") && r.params.get("fromAccountType") === transfer.fromAccountType &&
          r.params.get("toAccountType") === transfer.toAccountType
        const ofDepositStream = (r: Polled) => r.path === Endpoint.depositHistory.path
        // Following has begun: each stream has read twice since the catch-up (its read onward from the
        // checkpoint, then a poll, which re-reads the settlement window; or two polls).
        const caughtUp = proxy.requests.length
        const reads = (of: (r: Polled) => boolean) =>
          new Set(proxy.requests.slice(caughtUp).filter(of).map((r) => r.params.get("endTime"))).size
        await until(() => reads(ofTransferStream) >= 2 && reads(ofDepositStream) >= 2, 30_000, "the first polls")

        // Both streams parked at the proxy on their next poll, so that no read of theirs is under way
        // while the service changes.
        const ofEither = (r: Polled) => ofTransferStream(r) || ofDepositStream(r)
        proxy.hold(ofEither)
        const parked = () => proxy.waiting()
        await until(() => parked().some(ofTransferStream) && parked().some(ofDepositStream), 30_000, "the next polls")

        await running.run(running.server.store.insertTransfers([transfer]))
        await running.run(running.server.store.updateDeposit(deposit, { status: 5, confirmTimes: "20" }))
        // The parked polls go on and are answered with the changes; every later read of the two streams
        // is held back, so the changes must be stored from those polls.
        proxy.release(ofEither)
        await until(
          async () => {
            const tables = await readTables(db)
            return tables.transfers.some((t) => t.tran_id === transfer.tranId) &&
              tables.deposits.some((d) => d.tx_id === deposit.txId && d.status === "5" && d.confirm_times === "20")
          },
          30_000,
          "the new transfer and the deposit update, from the first poll of their streams after the change"
        )
        proxy.release()
        await expectTablesEqualService(running, db)

        child.process.kill("SIGTERM")
        const result = await child.done
        expect(result.signal).toBe(null)
        expect(result.code).toBe(0)
        expect(result.stderr).toBe("")
        expect(result.stdout).toMatch(/applied \d+ transfer and \d+ deposit records/)
      } finally {
        await proxy.close()
      }
    },
    120_000
  )

  it(
    "SIGINT during the catch-up: the current batch commits, exit 130 saying so, and a restart completes exactly",
    async () => {
      const db = Path.join(temp.dir, "sigint.db")
      const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "40" })
      const child = spawn(syncArgs(db), env)
      await until(
        async () => Fs.existsSync(db) && (await readTables(db).catch(() => undefined)) !== undefined,
        30_000,
        "the database"
      )
      child.process.kill("SIGINT")
      const result = await child.done
      expect(result.code).toBe(130)
      expect(result.stderr).toBe(
        "broker-history: interrupted: the sync stopped before it caught up; every batch written is committed: run it again to continue\n"
      )
      const again = await cli(syncArgs(db), env)
      expect(again.code).toBe(0)
      await expectTablesEqualService(running, db)
    },
    90_000
  )
})
