// The sync store on its own (SQLite in memory or in a file): what it reads back of each stream, a
// backfill's progress and its end, rows and checkpoints kept per profile, upserts that duplicate
// nothing, the schema migrated once, and the sentence of a database that cannot be opened.
import { DepositRecord } from "@broker-history/domain"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Schema } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Plan from "../../../../src/internal/sync/plan/Plan.js"
import * as Migrations from "../../../../src/internal/sync/store/Migrations.js"
import * as Store from "../../../../src/internal/sync/store/Store.js"

const checkpoint = { time: 1700000000000, ids: ["42"] }
const inMemory = Store.layer(":memory:")

describe("Store", () => {
  it.effect("reads a stream's checkpoint back, and keeps a damaged one as its error", () =>
    Effect.gen(function*() {
      const store = yield* Store.SyncStore
      yield* store.applyDeposits(Plan.depositStreamId, [], { _tag: "Checkpoint", checkpoint, coveredSince: 0 })
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO sync_checkpoints (profile, stream, checkpoint, updated_at)
        VALUES ('default', '["other"]', '{garbage', 0)`
      const streams = yield* store.streams
      expect(streams.get(Plan.depositStreamId)).toEqual({
        checkpoint: Either.right(checkpoint),
        coveredSince: 0,
        backfill: undefined
      })
      expect(Either.isLeft(streams.get("[\"other\"]")!.checkpoint)).toBe(true)
    }).pipe(
      Effect.provide(
        Layer.effect(Store.SyncStore, Store.make).pipe(
          Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))
        )
      )
    ))

  it.effect("a backfill's progress is stored beside the checkpoint, and its end moves where the history starts", () =>
    Effect.gen(function*() {
      const store = yield* Store.SyncStore
      const stream = Plan.depositStreamId
      yield* store.applyDeposits(stream, [], {
        _tag: "Checkpoint",
        checkpoint: { time: 2000, ids: ["9"] },
        coveredSince: 1000
      })
      yield* store.applyDeposits(stream, [], { _tag: "Backfill", since: 0, checkpoint: { time: 500, ids: ["3"] } })
      const during = (yield* store.streams).get(stream)
      expect([during?.coveredSince, during?.backfill]).toEqual([1000, {
        since: 0,
        checkpoint: { time: 500, ids: ["3"] }
      }])
      yield* store.completeBackfill(stream, 0)
      const after = (yield* store.streams).get(stream)
      expect([after?.coveredSince, after?.backfill, after?.checkpoint]).toEqual([
        0,
        undefined,
        Either.right({ time: 2000, ids: ["9"] })
      ])
    }).pipe(Effect.provide(inMemory)))

  it.effect("rows and checkpoints are kept per profile; applying records again duplicates nothing", () =>
    Effect.gen(function*() {
      const store = yield* Store.SyncStore
      const deposits = Schema.decodeUnknownSync(DepositRecord.DepositPage)([1, 2, 3].map((n) => ({
        amount: `${n}.5`,
        coin: "USDT",
        network: "TRC20",
        status: 5,
        address: `T${n}`,
        txId: `0x${n}`,
        unlockConfirm: 20,
        confirmTimes: 20,
        insertTime: 1654064568000 + n
      })))
      const acme = store.forProfile("acme")
      yield* acme.applyDeposits(Plan.depositStreamId, deposits, { _tag: "Checkpoint", checkpoint, coveredSince: 0 })
      yield* acme.applyDeposits(Plan.depositStreamId, deposits, undefined)
      expect(yield* acme.counts).toEqual({ transfers: 0, deposits: 3 })
      expect((yield* acme.streams).size).toBe(1)
      expect(yield* store.counts).toEqual({ transfers: 0, deposits: 0 })
      expect((yield* store.forProfile("globex").streams).size).toBe(0)
    }).pipe(Effect.provide(inMemory)))

  it("a database file opened again keeps what was written, its schema migrated once", async () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "store-"))
    try {
      const db = Path.join(dir, "sync.db")
      const stream = Plan.transferStream({ fromAccountType: "SPOT", toAccountType: "SPOT" }).id
      await Effect.flatMap(
        Store.SyncStore,
        (store) => store.applyTransfers(stream, [], { _tag: "Checkpoint", checkpoint, coveredSince: 0 })
      ).pipe(
        Effect.provide(Store.layer(db)),
        Effect.runPromise
      )
      const ids = await Effect.flatMap(Store.SyncStore, (store) => store.streams).pipe(
        Effect.provide(Store.layer(db)),
        Effect.runPromise
      )
      expect([...ids.keys()]).toEqual(["[\"transfers\",\"SPOT\",\"SPOT\",null,null]"])
      // Every migration is recorded: running them again applies none.
      const again = await Migrations.run.pipe(
        Effect.provide(SqliteClient.layer({ filename: db })),
        Effect.runPromise
      )
      expect(again).toEqual([])
    } finally {
      Fs.rmSync(dir, { recursive: true })
    }
  })

  it.effect("the migrations of a new database, in order", () =>
    Effect.gen(function*() {
      expect(yield* Migrations.run).toEqual([[1, "create_tables"], [2, "covered_range"], [3, "profiles"]])
    }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" }))))

  it.effect("a database that cannot be opened, or a URL of another scheme: one sentence, nothing created", () =>
    Effect.gen(function*() {
      const missing = yield* Effect.flip(Effect.scoped(Layer.build(Store.layer("/no/such/directory/sync.db"))))
      expect(missing).toBeInstanceOf(Store.SyncSetupError)
      expect(missing.message).toMatch(/^cannot open the SQLite database \/no\/such\/directory\/sync\.db \(/)
      expect(missing.message).toMatch(/check --db or BROKER_DB \(the directory must exist and be writable\)$/)
      const mistyped = yield* Effect.flip(Effect.scoped(Layer.build(Store.layer("pg://u:pw@h/db"))))
      expect(mistyped.message).toMatch(
        /^cannot open the database: the name pg:\/\/u:\*\*\*@h\/db: the URL scheme pg: is not supported/
      )
    }))
})
