// Reads a sync database (SQLite path or postgres:// URL) back, rows normalized and sorted by key.
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Layer } from "effect"
import { Effect, Redacted } from "effect"
import * as SyncStore from "../../src/SyncStore.js"
import { byKey, normalize } from "./Harness.js"

export interface Tables {
  readonly transfers: ReadonlyArray<Record<string, unknown>>
  readonly deposits: ReadonlyArray<Record<string, unknown>>
  readonly checkpoints: ReadonlyArray<{ readonly stream: string; readonly checkpoint: string }>
}

const client = (db: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  SyncStore.isPostgres(db)
    ? PgClient.layer({ url: Redacted.make(db), maxConnections: 1 })
    : SqliteClient.layer({ filename: db, disableWAL: true })

export const readTables = (db: string): Promise<Tables> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transfers = yield* sql<Record<string, unknown>>`SELECT * FROM transfers`
    const deposits = yield* sql<Record<string, unknown>>`SELECT * FROM deposits`
    const checkpoints = yield* sql<
      { stream: string; checkpoint: string }
    >`SELECT stream, checkpoint FROM sync_checkpoints`
    return {
      transfers: transfers.map(normalize).sort(byKey),
      deposits: deposits.map(normalize).sort(byKey),
      checkpoints
    }
  }).pipe(Effect.provide(client(db)), Effect.scoped, Effect.runPromise)

/** Counts, or zeros while the schema does not exist yet. */
export const countRows = (db: string): Promise<{ transfers: number; deposits: number }> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ t: number | string; d: number | string }>`
      SELECT (SELECT COUNT(*) FROM transfers) AS t, (SELECT COUNT(*) FROM deposits) AS d`
    return { transfers: Number(row.t), deposits: Number(row.d) }
  }).pipe(
    Effect.provide(client(db)),
    Effect.scoped,
    Effect.catchAll(() => Effect.succeed({ transfers: 0, deposits: 0 })),
    Effect.runPromise
  )

/** Drops the sync tables (PostgreSQL databases are reused between runs). */
export const dropTables = (db: string): Promise<void> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const table of ["transfers", "deposits", "sync_checkpoints", "sync_migrations"]) {
      yield* sql.unsafe(`DROP TABLE IF EXISTS ${table}`)
    }
  }).pipe(Effect.provide(client(db)), Effect.scoped, Effect.runPromise)
