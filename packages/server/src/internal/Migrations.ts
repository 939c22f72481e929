/**
 * The database schema, as `@effect/sql` migrations: transfers, deposits, API keys and sub-accounts,
 * with the indexes that serve every filter of the endpoints together with their order.
 *
 * @internal
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"

/**
 * The columns of a transfer's details, as SQL column definitions (public as
 * `Store.transferDetailColumns`: the command line's sync database keeps them too). Part of migrations
 * already applied: it never changes (a new column is a new migration).
 */
export const transferDetailColumns = [
  "asset TEXT NOT NULL",
  "amount TEXT NOT NULL",
  "from_account_type TEXT NOT NULL",
  "to_account_type TEXT NOT NULL",
  "from_symbol TEXT NOT NULL",
  "to_symbol TEXT NOT NULL",
  "status TEXT NOT NULL"
].join(", ")

const createTables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // tran_id is the rowid: every index then ends with it implicitly, so "timestamp DESC, tran_id DESC"
  // is read straight from an index without a sort. NULL accounts are the master account.
  yield* sql`
    CREATE TABLE transfers (
      tran_id INTEGER PRIMARY KEY,
      client_tran_id TEXT,
      from_account TEXT,
      to_account TEXT,
      ${sql.literal(transferDetailColumns)},
      timestamp INTEGER NOT NULL
    )`
  // Every transfer query pins both accounts (omitted = master) and both account types.
  yield* sql`
    CREATE INDEX transfers_by_route_time
    ON transfers (from_account, to_account, from_account_type, to_account_type, timestamp)`
  yield* sql`
    CREATE INDEX transfers_by_client_tran_id
    ON transfers (client_tran_id, timestamp) WHERE client_tran_id IS NOT NULL`
  // id is insertion order, the tie-break of deposits at one millisecond.
  yield* sql`
    CREATE TABLE deposits (
      id INTEGER PRIMARY KEY,
      amount TEXT NOT NULL,
      coin TEXT NOT NULL,
      network TEXT NOT NULL,
      status INTEGER NOT NULL,
      address TEXT NOT NULL,
      address_tag TEXT,
      tx_id TEXT NOT NULL,
      unlock_confirm TEXT NOT NULL,
      confirm_times TEXT NOT NULL,
      insert_time INTEGER NOT NULL,
      memo TEXT
    )`
  yield* sql`CREATE UNIQUE INDEX deposits_identity ON deposits (tx_id, coin, network, address)`
  // A deposit query always has a time range (the service fills in the defaults).
  yield* sql`CREATE INDEX deposits_by_time ON deposits (insert_time)`
  yield* sql`CREATE INDEX deposits_by_coin_time ON deposits (coin, insert_time)`
  yield* sql`CREATE INDEX deposits_by_status_time ON deposits (status, insert_time)`
  yield* sql`CREATE INDEX deposits_by_coin_status_time ON deposits (coin, status, insert_time)`
  yield* sql`
    CREATE TABLE api_keys (
      api_key TEXT PRIMARY KEY,
      secret_key TEXT NOT NULL,
      permissions TEXT NOT NULL
    )`
})

// Sub-accounts with their creation times, as the broker's sub-account list answers them.
const createSubAccounts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sub_accounts (
      name TEXT PRIMARY KEY,
      note TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`
  // The list's order: creation time, then name.
  yield* sql`CREATE INDEX sub_accounts_by_creation ON sub_accounts (created_at, name)`
})

// Pending transfers by time, for settling those that are due (`PendingSettlement`): a partial index,
// so it holds the pending transfers only and costs the other inserts nothing.
const indexPendingTransfers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX transfers_pending ON transfers (timestamp) WHERE status = 'PENDING'`
})

/** The migrations of the service's database, in order, for `@effect/sql`'s `Migrator.fromRecord`. */
export const migrations: Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>> = {
  "0001_create_tables": createTables,
  "0002_sub_accounts": createSubAccounts,
  "0003_pending_transfers": indexPendingTransfers
}

/**
 * Applies every pending migration to the database behind the `SqlClient` in context, and returns the
 * ones it applied as `[id, name]`.
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Migrator.make({})({ loader: Migrator.fromRecord(migrations) })
