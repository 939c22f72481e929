// The sync store (`Store`) on a batch of the largest `--batch-size`: every row upserted in one transaction with
// statements under both databases' parameter limits, a key twice in one batch stored as its later
// record, and applying the batch again changes nothing. SQLite in a file; PostgreSQL when
// BROKER_TEST_PG_URL is set (`.ci/run` sets it; Postgres.test.ts fails in CI without it).
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import { ReferenceServer, Seed } from "@broker-history/server"
import { WireFormat } from "@broker-history/testing/ServerInternals"
import { Effect, Schema } from "effect"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as Plan from "../src/internal/sync/plan/Plan.js"
import * as Columns from "../src/internal/sync/store/Columns.js"
import * as Store from "../src/internal/sync/store/Store.js"
import { byKey, normalize, tempDir } from "./support/Harness.js"
import { dropTables, readTables } from "./support/Tables.js"

/** The largest batch `sync --batch-size` accepts. */
const largest = 10_000

const transfers = Schema.decodeUnknownSync(TransferRecord.TransferPage)(
  Seed.transfers({ seed: 3, transfers: largest, deposits: 0 }).map((t) =>
    WireFormat.transfer(t, ReferenceServer.defaultMasterAccount)
  )
).slice(0, largest - 1)
const deposits = Schema.decodeUnknownSync(DepositRecord.DepositPage)(
  Seed.deposits({ seed: 3, transfers: 0, deposits: largest }).map(WireFormat.deposit)
).slice(0, largest - 1)
// The batch's last record repeats its first record's key, changed: the stored row is the later one.
const changedTransfer = { ...transfers[0]!, status: transfers[0]!.status === "FAILED" ? "SUCCESS" : "FAILED" } as const
const changedDeposit = { ...deposits[0]!, confirmTimes: deposits[0]!.confirmTimes + 1 }
const transferBatch = [...transfers, changedTransfer]
const depositBatch = [...deposits, changedDeposit]
const stream = Plan.transferStream({ fromAccountType: "SPOT", toAccountType: "FUTURES" }).id

const rows = <A>(records: ReadonlyArray<A>, row: (a: A) => Record<string, unknown>) =>
  records.map((r) => normalize(row(r))).sort(byKey)

const applyTwice = (db: string) =>
  Effect.gen(function*() {
    const store = yield* Store.SyncStore
    for (let i = 0; i < 2; i++) {
      yield* store.applyTransfers(stream, transferBatch, {
        _tag: "Checkpoint",
        checkpoint: { time: 1_700_000_000_000, ids: ["1"] },
        coveredSince: 0
      })
      yield* store.applyDeposits(Plan.depositStreamId, depositBatch, undefined)
    }
  }).pipe(Effect.provide(Store.layer(db)), Effect.runPromise)

const expectLargestStored = async (db: string) => {
  await applyTwice(db)
  const tables = await readTables(db)
  expect(tables.transfers).toEqual(rows([changedTransfer, ...transfers.slice(1)], Columns.transferRow))
  expect(tables.deposits).toEqual(rows([changedDeposit, ...deposits.slice(1)], Columns.depositRow))
  expect(tables.checkpoints.map((c) => c.stream)).toEqual([stream])
}

describe("Store: a batch of the largest --batch-size", () => {
  const temp = tempDir()
  afterAll(() => temp.cleanup())

  it(
    "SQLite: every row stored once, a key twice in the batch as its later record",
    () => expectLargestStored(Path.join(temp.dir, "largest.db")),
    60_000
  )

  const url = process.env.BROKER_TEST_PG_URL
  it.skipIf(url === undefined || url === "")(
    "PostgreSQL: every row stored once, a key twice in the batch as its later record",
    async () => {
      await dropTables(url!)
      await expectLargestStored(url!)
    },
    60_000
  )
})
