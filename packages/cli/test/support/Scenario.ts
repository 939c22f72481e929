// The sync exactness scenario shared by the SQLite and PostgreSQL tests: sync killed with SIGKILL
// at random points (a seeded generator picks them), the service's data changing between runs (a
// late record inside the settlement window, a deposit status change), then a last run to the end;
// the tables must then equal the service's data exactly.
import { Seed } from "@broker-history/server"
import type { Store } from "@broker-history/server"
import { Prng } from "@broker-history/testing/ServerInternals"
import { expect } from "vitest"
import type { Running } from "./Harness.js"
import { cli, cliEnv, expectedDepositRows, expectedTransferRows, sleep, spawn, until } from "./Harness.js"
import { countRows, readTables } from "./Tables.js"

export const subAccounts = Seed.subAccountNames(4)

const day = 86_400_000

/** A deposit in the last day (inside the settlement window), pending. */
export const recentDeposit = (n: number, now: number): Store.DepositRow => ({
  amount: "12.34000000",
  coin: "USDT",
  network: "TRC20",
  status: 4,
  address: `TTestAddress${n}`,
  addressTag: null,
  txId: `0xtest${n.toString(16).padStart(8, "0")}`,
  unlockConfirm: "20",
  confirmTimes: "1",
  insertTime: now - 2 * 3_600_000 - n,
  memo: null
})

/** A master→sub transfer with a time in the recent past (a late record). */
export const lateTransfer = (n: number, time: number): Store.TransferRow => ({
  tranId: String(90_000_000_000 + n),
  clientTranId: null,
  fromAccount: null,
  toAccount: subAccounts[n % subAccounts.length],
  asset: "USDT",
  amount: `${n}.10000000`,
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: time
})

export const syncArgs = (db: string) => [
  "sync",
  "--db",
  db,
  "--sub-accounts",
  subAccounts.join(","),
  "--since",
  "3y",
  "--batch-size",
  "40",
  "--concurrency",
  "3"
]

/** Expected tables: every transfer touching the master, every deposit, from three years back. */
export const expectTablesEqualService = async (running: Running, db: string) => {
  const since = Date.now() - 3 * 365 * day
  const tables = await readTables(db)
  const transfers = expectedTransferRows(await running.run(running.server.store.allTransfers()), since)
  const deposits = expectedDepositRows(await running.run(running.server.store.allDeposits()), since)
  expect(tables.transfers.length).toBe(transfers.length)
  expect(tables.deposits.length).toBe(deposits.length)
  expect(tables.transfers).toEqual(transfers)
  expect(tables.deposits).toEqual(deposits)
  return tables
}

/**
 * Kills a sync at random points `kills` times (seeded), changing the service between runs, then
 * runs it to the end and checks the tables.
 */
export const killAndRestart = async (running: Running, db: string, seed: number, kills: number) => {
  const random = Prng.mulberry32(seed)
  const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "40" })
  const now = Date.now()
  const extra = recentDeposit(seed * 10, now)
  await running.run(running.server.store.insertDeposits([extra]))
  const killedAt: Array<string> = []
  for (let k = 0; k < kills; k++) {
    const child = spawn(syncArgs(db), env)
    // Startup takes about a second; kill somewhere in the first few seconds of work.
    const delay = 900 + Math.floor(random() * 3500)
    const exited = await Promise.race([child.done.then(() => true), sleep(delay).then(() => false)])
    const before = await countRows(db)
    if (!exited) child.process.kill("SIGKILL")
    const result = await child.done
    killedAt.push(
      `${delay} ms: ${exited ? `finished (${result.code})` : `killed, ${before.transfers}+${before.deposits} rows`}`
    )
    // The service changes while the sync is down: a late record in the settlement window, and a
    // status change of a deposit that may already be stored.
    await running.run(running.server.store.insertTransfers([lateTransfer(seed * 10 + k, now - 3_600_000 - k)]))
    await running.run(
      running.server.store.updateDeposit(extra, { status: 5 + k, confirmTimes: String(10 + k) })
    )
  }
  const final = await cli(syncArgs(db), env)
  expect(final.stderr, killedAt.join("; ")).toBe("")
  expect(final.code, killedAt.join("; ")).toBe(0)
  expect(final.stdout).toMatch(/^synced \d+ streams into /m)
  const tables = await expectTablesEqualService(running, db)
  const stored = tables.deposits.find((d) => d.tx_id === extra.txId)
  expect(stored?.status).toBe(String(5 + kills - 1))
  return killedAt
}

export { until }
