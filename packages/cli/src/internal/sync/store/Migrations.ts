/**
 * The sync database's schema as `@effect/sql` migrations, one text for SQLite and PostgreSQL.
 * Amounts are TEXT: exact as the service sent them (`"0.10000000"` stays so; cast to NUMERIC to
 * compute). Times are Unix milliseconds (BIGINT).
 *
 * @internal
 */
import * as Store from "@broker-history/server/Store"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"

const createTables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE transfers (
      tran_id TEXT PRIMARY KEY,
      client_tran_id TEXT NOT NULL,
      from_account TEXT NOT NULL,
      to_account TEXT NOT NULL,
      ${sql.literal(Store.transferDetailColumns)},
      timestamp BIGINT NOT NULL
    )`
  yield* sql`CREATE INDEX transfers_by_time ON transfers (timestamp)`
  // A deposit is txId + coin + network + address (docs/wire-contract.md, "Records").
  yield* sql`
    CREATE TABLE deposits (
      tx_id TEXT NOT NULL,
      coin TEXT NOT NULL,
      network TEXT NOT NULL,
      address TEXT NOT NULL,
      amount TEXT NOT NULL,
      status TEXT NOT NULL,
      address_tag TEXT NOT NULL,
      unlock_confirm TEXT NOT NULL,
      confirm_times TEXT NOT NULL,
      insert_time BIGINT NOT NULL,
      memo TEXT NOT NULL,
      PRIMARY KEY (tx_id, coin, network, address)
    )`
  yield* sql`CREATE INDEX deposits_by_time ON deposits (insert_time)`
  // One row per stream: where it stands (Checkpoint JSON), written in the transaction of its rows.
  yield* sql`
    CREATE TABLE sync_checkpoints (
      stream TEXT PRIMARY KEY,
      checkpoint TEXT NOT NULL,
      updated_at BIGINT NOT NULL
    )`
})

// What each stream holds, next to its checkpoint: `covered_since` (Unix ms) is where its stored history
// starts, so a run asking for an earlier start reads only [since, covered_since). A backfill of that
// range stores its progress in `backfill_since` and `backfill_checkpoint` with each batch of rows, and
// moves `covered_since` only once the whole range is stored. Rows of the first schema keep NULL: the
// sync then counts them as covered from their checkpoint only (what an old run covered is not known).
const coveredRange = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sync_checkpoints ADD COLUMN covered_since BIGINT`
  yield* sql`ALTER TABLE sync_checkpoints ADD COLUMN backfill_since BIGINT`
  yield* sql`ALTER TABLE sync_checkpoints ADD COLUMN backfill_checkpoint TEXT`
})

// Several broker keys in one database: every row and checkpoint belongs to a profile (a named key),
// part of each table's key, so two keys never share or overwrite a row or a checkpoint. SQLite cannot
// change a primary key in place, so each table is rebuilt (the same statements serve PostgreSQL): the
// rows stored so far are copied in as the `default` profile's, the profile of the single-key flags.
const keyedTable = (
  table: string,
  columns: string,
  key: string,
  index: string,
  indexed: string
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const next = `${table}_by_profile`
    const names = columns.split(",").map((c) => c.trim().split(/\s+/)[0]).join(", ")
    yield* sql.unsafe(`CREATE TABLE ${next} (profile TEXT NOT NULL, ${columns}, PRIMARY KEY (profile, ${key}))`)
    yield* sql.unsafe(`INSERT INTO ${next} (profile, ${names}) SELECT 'default', ${names} FROM ${table}`)
    yield* sql.unsafe(`DROP TABLE ${table}`)
    yield* sql.unsafe(`ALTER TABLE ${next} RENAME TO ${table}`)
    if (index !== "") yield* sql.unsafe(`CREATE INDEX ${index} ON ${table} (profile, ${indexed})`)
  })

const profiles = Effect.gen(function*() {
  yield* keyedTable(
    "transfers",
    `tran_id TEXT NOT NULL, client_tran_id TEXT NOT NULL, from_account TEXT NOT NULL, to_account TEXT NOT NULL, ${Store.transferDetailColumns}, timestamp BIGINT NOT NULL`,
    "tran_id",
    "transfers_by_time",
    "timestamp"
  )
  yield* keyedTable(
    "deposits",
    "tx_id TEXT NOT NULL, coin TEXT NOT NULL, network TEXT NOT NULL, address TEXT NOT NULL, amount TEXT NOT NULL, " +
      "status TEXT NOT NULL, address_tag TEXT NOT NULL, unlock_confirm TEXT NOT NULL, confirm_times TEXT NOT NULL, " +
      "insert_time BIGINT NOT NULL, memo TEXT NOT NULL",
    "tx_id, coin, network, address",
    "deposits_by_time",
    "insert_time"
  )
  yield* keyedTable(
    "sync_checkpoints",
    "stream TEXT NOT NULL, checkpoint TEXT NOT NULL, updated_at BIGINT NOT NULL, covered_since BIGINT, " +
      "backfill_since BIGINT, backfill_checkpoint TEXT",
    "stream",
    "",
    ""
  )
})

/** The sync database's migrations, in order, for `@effect/sql`'s `Migrator.fromRecord`. */
export const migrations: Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>> = {
  "0001_create_tables": createTables,
  "0002_covered_range": coveredRange,
  "0003_profiles": profiles
}

/**
 * Applies every pending migration to the database behind the `SqlClient` in context (SQLite or
 * PostgreSQL), recorded in the table `sync_migrations`, and returns the ones it applied as `[id, name]`.
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "sync_migrations" })
