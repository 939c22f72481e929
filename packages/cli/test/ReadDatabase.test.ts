// The public reading of a synced database: `tables` names exactly the columns and keys the migrations
// create, and the database opened for reading shows what the sync's store wrote, per profile.
import { SyncDatabase } from "@broker-history/cli"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import * as Path from "node:path"
import * as Store from "../src/internal/sync/store/Store.js"
import { tempDir } from "./support/Harness.js"

const temp = tempDir()
afterAll(() => temp.cleanup())

describe("SyncDatabase", () => {
  it.effect("tables: every table's columns in order and its primary key, as migrated", () =>
    Effect.gen(function*() {
      yield* SyncDatabase.SyncDatabase
      const sql = yield* SqlClient.SqlClient
      for (const table of Object.values(SyncDatabase.tables)) {
        const info = yield* sql<{ readonly name: string; readonly pk: number }>`
          SELECT name, pk FROM pragma_table_info(${table.name})`
        expect(info.map((c) => c.name), table.name).toEqual(table.columns)
        expect(info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name), table.name)
          .toEqual(table.key)
      }
    }).pipe(
      Effect.provide(
        Layer.effect(SyncDatabase.SyncDatabase, SyncDatabase.make).pipe(
          Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))
        )
      )
    ))

  it("opened for reading: each profile's stored streams and counts, as the sync's store wrote them", async () => {
    const db = Path.join(temp.dir, "read.db")
    const checkpoint = { time: 1700000000000, ids: ["42"] }
    const stream = SyncDatabase.transferStreamId({ fromAccountType: "SPOT", toAccountType: "FUTURES" })
    await Effect.flatMap(Store.SyncStore, (store) =>
      Effect.zipRight(
        store.forProfile("acme").applyTransfers(stream, [], { _tag: "Checkpoint", checkpoint, coveredSince: 0 }),
        store.applyDeposits(SyncDatabase.depositStreamId, [], { _tag: "Checkpoint", checkpoint, coveredSince: 5 })
      )).pipe(Effect.provide(Store.layer(db)), Effect.runPromise)
    const read = await Effect.gen(function*() {
      const database = yield* SyncDatabase.SyncDatabase
      const acme = database.forProfile("acme")
      return {
        profiles: [database.profile, acme.profile],
        own: [...(yield* database.streams).entries()],
        acme: [...(yield* acme.streams).keys()],
        counts: yield* acme.counts
      }
    }).pipe(Effect.provide(SyncDatabase.layer(db)), Effect.runPromise)
    expect(read.profiles).toEqual([SyncDatabase.defaultProfile, "acme"])
    expect(read.own).toEqual([[
      SyncDatabase.depositStreamId,
      { checkpoint: Either.right(checkpoint), coveredSince: 5, backfill: undefined }
    ]])
    expect(read.acme).toEqual(["[\"transfers\",\"SPOT\",\"FUTURES\",null,null]"])
    expect(read.counts).toEqual({ transfers: 0, deposits: 0 })
  })
})
