// What a sync database claims to hold, checked against the service: each stream's covered range
// (covered_since up to its checkpoint) and its backfill progress must have every one of the
// service's records of that stream stored.
import type { Store } from "@broker-history/server"
import { Prng } from "@broker-history/testing/ServerInternals"
import { expect } from "vitest"
import type { Running } from "./Harness.js"
import { cli, cliEnv, expectedDepositRows, expectedTransferRows, sleep, spawn } from "./Harness.js"
import { subAccounts } from "./Scenario.js"
import { readCheckpointRows, readTables } from "./Tables.js"

export const day = 86_400_000
export const year = 365 * day

/** The sync command of the scenario with `--since` as given (Unix ms text, a date, 2y, …). */
export const syncSince = (db: string, since: string | undefined, batchSize = 40) => [
  "sync",
  "--db",
  db,
  "--sub-accounts",
  subAccounts.join(","),
  ...(since === undefined ? [] : ["--since", since]),
  "--batch-size",
  String(batchSize),
  "--concurrency",
  "3"
]

/** The tables equal the service's data of the default plan from `since` (transfers) and `depositsSince`. */
export const expectTablesFrom = async (running: Running, db: string, since: number, depositsSince = since) => {
  const tables = await readTables(db)
  const transfers = expectedTransferRows(await running.run(running.server.store.allTransfers()), since)
  const deposits = expectedDepositRows(await running.run(running.server.store.allDeposits()), depositsSince)
  expect(tables.transfers.length).toBe(transfers.length)
  expect(tables.deposits.length).toBe(deposits.length)
  expect(tables.transfers).toEqual(transfers)
  expect(tables.deposits).toEqual(deposits)
  return tables
}

type StreamId = readonly [string, ...Array<string | null>]

/** The service's records of one stream id (`["deposits"]` or `["transfers", from type, to type, from, to]`). */
const recordsOf = (
  id: StreamId,
  transfers: ReadonlyArray<Store.TransferRow>,
  deposits: ReadonlyArray<Store.DepositRow>
): ReadonlyArray<{ key: string; time: number }> => {
  if (id[0] === "deposits") {
    return deposits.map((d) => ({ key: JSON.stringify([d.txId, d.coin, d.network, d.address]), time: d.insertTime }))
  }
  const [, fromType, toType, from, to] = id
  return transfers
    .filter((t) =>
      t.fromAccountType === fromType && t.toAccountType === toType && t.fromAccount === from && t.toAccount === to
    )
    .map((t) => ({ key: t.tranId, time: t.timestamp }))
}

/**
 * Every range a checkpoint row claims is stored: [covered_since, checkpoint time) and, during a
 * backfill, [backfill_since, backfill checkpoint time). Returns the rows, for more checks.
 */
export const expectClaimsStored = async (running: Running, db: string) => {
  const rows = await readCheckpointRows(db)
  const tables = await readTables(db)
  const stored = new Set([
    ...tables.transfers.map((t) => String(t.tran_id)),
    ...tables.deposits.map((d) => JSON.stringify([d.tx_id, d.coin, d.network, d.address]))
  ])
  const transfers = await running.run(running.server.store.allTransfers())
  const deposits = await running.run(running.server.store.allDeposits())
  for (const row of rows) {
    const records = recordsOf(JSON.parse(row.stream) as StreamId, transfers, deposits)
    const claims: Array<readonly [number, number]> = []
    if (row.covered_since !== null) claims.push([row.covered_since, JSON.parse(row.checkpoint).time])
    if (row.backfill_since !== null && row.backfill_checkpoint !== null) {
      claims.push([row.backfill_since, JSON.parse(row.backfill_checkpoint).time])
    }
    for (const [from, to] of claims) {
      const missing = records.filter((r) => r.time >= from && r.time < to && !stored.has(r.key))
      expect(missing, `${row.stream} claims ${from}..${to}`).toEqual([])
    }
  }
  return rows
}

/**
 * A sync that covers `from` onward, then backfilled to `to` (earlier) three times with SIGKILL right
 * after a new batch of backfill progress is committed (a seeded moment later), every claim checked
 * after each kill; then a run to the end, which must leave exactly the service's data from `to`.
 * What each killed run left is named in the assertion messages (nothing is printed).
 */
export const killDuringBackfill = async (
  running: Running,
  db: string,
  seed: number,
  from: number,
  to: number
): Promise<void> => {
  const fast = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
  const first = await cli(syncSince(db, String(from)), fast)
  expect(first.code).toBe(0)
  const random = Prng.mulberry32(seed)
  // Slow enough that the backfill takes a few seconds.
  const slow = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "10" })
  const runs: Array<string> = []
  let progressSeen = 0
  const progressOf = async () =>
    (await readCheckpointRows(db).catch(() => [])).filter((r) => r.backfill_since !== null).map((r) =>
      JSON.stringify([r.stream, r.backfill_since, r.backfill_checkpoint])
    ).join(" ")
  for (let k = 0; k < 3; k++) {
    const child = spawn(syncSince(db, String(to), 15), slow)
    // Killed as soon as the seeded n-th new state of backfill progress (a batch committed with its
    // rows, the backfill not done) is seen: the state a crash must survive.
    let seen = await progressOf()
    let changes = 1 + Math.floor(random() * 4)
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && child.process.exitCode === null && changes > 0) {
      await sleep(20)
      const now = await progressOf()
      if (now !== seen && now !== "") changes--
      seen = now
    }
    const exited = child.process.exitCode !== null
    if (!exited) child.process.kill("SIGKILL")
    const result = await child.done
    const rows = await expectClaimsStored(running, db)
    for (const row of rows) expect([from, to]).toContain(row.covered_since)
    const progress = rows.filter((r) => r.backfill_since !== null).length
    if (progress > 0) progressSeen++
    runs.push(
      `${exited ? `finished (${result.code})` : "killed"}: ${
        rows.filter((r) => r.covered_since === to).length
      } of ${rows.length} streams backfilled, ${progress} under way`
    )
  }
  const final = await cli(syncSince(db, String(to)), fast)
  expect(final.stderr, runs.join("; ")).toBe("")
  expect(final.code, runs.join("; ")).toBe(0)
  await expectTablesFrom(running, db, to)
  for (const row of await expectClaimsStored(running, db)) {
    expect(row.covered_since).toBe(to)
    expect(row.backfill_since).toBe(null)
  }
  expect(runs.some((k) => k.startsWith("killed")), runs.join("; ")).toBe(true)
  // At least one kill left a backfill half done, which the next run continued.
  expect(progressSeen, runs.join("; ")).toBeGreaterThan(0)
}
