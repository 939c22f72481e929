// Reads a sync database (SQLite path or postgres:// URL) back, rows normalized and sorted by key.
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Layer } from "effect"
import { Effect, Redacted } from "effect"
import * as DatabaseName from "../../src/internal/sync/store/DatabaseName.js"
import * as Migrations from "../../src/internal/sync/store/Migrations.js"
import { byKey, normalize } from "./Harness.js"

export interface Tables {
  readonly transfers: ReadonlyArray<Record<string, unknown>>
  readonly deposits: ReadonlyArray<Record<string, unknown>>
  readonly checkpoints: ReadonlyArray<{ readonly stream: string; readonly checkpoint: string }>
}

const client = (db: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  DatabaseName.isPostgres(db)
    ? PgClient.layer({ url: Redacted.make(db), maxConnections: 1 })
    : SqliteClient.layer({ filename: db, disableWAL: true })

/** A row without its `profile` column: the shape `Columns.transferRow` / `depositRow` give. */
const withoutProfile = ({ profile: _, ...row }: Record<string, unknown>) => row

/** One profile's rows (default: the profile of the single-key flags). */
export const readTables = (db: string, profile = "default"): Promise<Tables> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transfers = yield* sql<Record<string, unknown>>`SELECT * FROM transfers WHERE profile = ${profile}`
    const deposits = yield* sql<Record<string, unknown>>`SELECT * FROM deposits WHERE profile = ${profile}`
    const checkpoints = yield* sql<
      { stream: string; checkpoint: string }
    >`SELECT stream, checkpoint FROM sync_checkpoints WHERE profile = ${profile}`
    return {
      transfers: transfers.map(withoutProfile).map(normalize).sort(byKey),
      deposits: deposits.map(withoutProfile).map(normalize).sort(byKey),
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

/** A checkpoint row with every column (numbers as numbers; `null` where a column is empty or absent). */
export interface CheckpointRow {
  readonly stream: string
  readonly checkpoint: string
  readonly covered_since: number | null
  readonly backfill_since: number | null
  readonly backfill_checkpoint: string | null
}

const numberOrNull = (v: unknown): number | null => v === null || v === undefined ? null : Number(v)

/** Every row of sync_checkpoints of one profile, sorted by stream. */
export const readCheckpointRows = (db: string, profile = "default"): Promise<ReadonlyArray<CheckpointRow>> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM sync_checkpoints WHERE profile = ${profile}`
    return rows.map((r) => ({
      stream: String(r.stream),
      checkpoint: String(r.checkpoint),
      covered_since: numberOrNull(r.covered_since),
      backfill_since: numberOrNull(r.backfill_since),
      backfill_checkpoint: r.backfill_checkpoint === null || r.backfill_checkpoint === undefined
        ? null
        : String(r.backfill_checkpoint)
    })).sort((a, b) => a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0)
  }).pipe(Effect.provide(client(db)), Effect.scoped, Effect.runPromise)

/** Runs SQL statements against the database, in order (test set-up: damage a row, copy rows). */
export const execute = (
  db: string,
  statements: (sql: SqlClient.SqlClient) => ReadonlyArray<Effect.Effect<unknown, unknown>>
): Promise<void> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const statement of statements(sql)) yield* statement
  }).pipe(Effect.provide(client(db)), Effect.scoped, Effect.runPromise)

/**
 * A database as an earlier release of `sync` left it, with the default profile's rows of `from` copied
 * in: by default only migration 0001 (no covered range: each checkpoint's stream, JSON and time), or
 * the first `migrations` migrations (2: covered ranges, before rows were kept per profile).
 */
export const legacyCopy = async (from: string, to: string, migrations = 1): Promise<void> => {
  const rows = await Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const checkpoints = migrations >= 2
      ? sql<Record<string, unknown>>`
        SELECT stream, checkpoint, updated_at, covered_since, backfill_since, backfill_checkpoint
        FROM sync_checkpoints WHERE profile = 'default'`
      : sql<
        Record<string, unknown>
      >`SELECT stream, checkpoint, updated_at FROM sync_checkpoints WHERE profile = 'default'`
    return {
      transfers: (yield* sql<Record<string, unknown>>`SELECT * FROM transfers WHERE profile = 'default'`).map(
        withoutProfile
      ),
      deposits: (yield* sql<Record<string, unknown>>`SELECT * FROM deposits WHERE profile = 'default'`).map(
        withoutProfile
      ),
      sync_checkpoints: yield* checkpoints
    }
  }).pipe(Effect.provide(client(from)), Effect.scoped, Effect.runPromise)
  await Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* Migrator.make({})({
      loader: Migrator.fromRecord(Object.fromEntries(Object.entries(Migrations.migrations).slice(0, migrations))),
      table: "sync_migrations"
    })
    for (const [table, list] of Object.entries(rows)) {
      for (let i = 0; i < list.length; i += 200) {
        yield* sql`INSERT INTO ${sql(table)} ${sql.insert(list.slice(i, i + 200))}`
      }
    }
  }).pipe(Effect.provide(client(to)), Effect.scoped, Effect.runPromise)
}
