/**
 * A database `broker-history sync` wrote, for a program that reads it: its tables and their columns,
 * the rows a query returns, the ids its streams' checkpoints are stored under, and the database
 * opened to read each profile's stored streams and row counts. SQLite (a file path) or PostgreSQL (a
 * `postgres://` URL): the tables are the same in both.
 *
 * Every row belongs to a profile (the broker key it was read with: `defaultProfile` for the
 * single-key flags, a profile's name with `sync --profiles`); amounts are TEXT exactly as the
 * service sent them, times Unix milliseconds.
 *
 * @since 0.2.0
 */
import { TransferPlan } from "@broker-history/client"
import type { MigrationError } from "@effect/sql/Migrator"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Columns from "./internal/sync/store/Columns.js"
import * as Store from "./internal/sync/store/Store.js"

/**
 * A row of `transfers` as a query returns it: one transfer of one profile, keyed by `profile` and
 * `tran_id`, every value as the service sent it (a text field it left out is `""`).
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * const row: SyncDatabase.TransferRow = {
 *   profile: "default",
 *   tran_id: "11945860693",
 *   client_tran_id: "",
 *   from_account: "",
 *   to_account: "sub001@broker.test",
 *   asset: "USDT",
 *   amount: "0.10000000",
 *   from_account_type: "SPOT",
 *   to_account_type: "FUTURES",
 *   from_symbol: "",
 *   to_symbol: "",
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * }
 * assert.strictEqual(Number(row.timestamp), 1544433325000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferRow {
  readonly profile: string
  readonly tran_id: string
  readonly client_tran_id: string
  /** The sending account; `""` for the master account. */
  readonly from_account: string
  /** The receiving account; `""` for the master account. */
  readonly to_account: string
  readonly asset: string
  /** Exact decimal text (`"0.90"` stays `"0.90"`): cast to NUMERIC to compute. */
  readonly amount: string
  readonly from_account_type: string
  readonly to_account_type: string
  readonly from_symbol: string
  readonly to_symbol: string
  readonly status: string
  /** Unix ms (BIGINT): a number from SQLite, text from PostgreSQL's driver; `Number()` reads both. */
  readonly timestamp: number | string
}

/**
 * A row of `deposits` as a query returns it: one deposit of one profile, keyed by `profile`, `tx_id`,
 * `coin`, `network` and `address`, every value as the service sent it.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { DepositRecord } from "@broker-history/domain"
 *
 * const row: SyncDatabase.DepositRow = {
 *   profile: "default",
 *   tx_id: "0xabc",
 *   coin: "USDT",
 *   network: "TRC20",
 *   address: "TXyz",
 *   amount: "50000.00000000",
 *   status: "5",
 *   address_tag: "",
 *   unlock_confirm: "20",
 *   confirm_times: "20",
 *   insert_time: "1654064568000",
 *   memo: ""
 * }
 * assert.strictEqual(DepositRecord.statusName(row.status), "SUCCESS")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface DepositRow {
  readonly profile: string
  readonly tx_id: string
  readonly coin: string
  readonly network: string
  readonly address: string
  /** Exact decimal text: cast to NUMERIC to compute. */
  readonly amount: string
  /** The status code as text (`"5"` is SUCCESS: `DepositRecord.statusName`). */
  readonly status: string
  readonly address_tag: string
  readonly unlock_confirm: string
  readonly confirm_times: string
  /** Unix ms (BIGINT): a number from SQLite, text from PostgreSQL's driver; `Number()` reads both. */
  readonly insert_time: number | string
  readonly memo: string
}

/**
 * A row of `sync_checkpoints` as a query returns it: where one stream of one profile stands. A stream
 * without any record yet may have no row.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { Checkpoint } from "@broker-history/client"
 * import { Either } from "effect"
 *
 * const row: SyncDatabase.CheckpointRow = {
 *   profile: "default",
 *   stream: SyncDatabase.depositStreamId,
 *   checkpoint: '{"time":1795416655971,"ids":["42"]}',
 *   updated_at: 1795429442924,
 *   covered_since: 0,
 *   backfill_since: null,
 *   backfill_checkpoint: null
 * }
 * assert.deepStrictEqual(Checkpoint.decode(row.checkpoint), Either.right({ time: 1795416655971, ids: ["42"] }))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface CheckpointRow {
  readonly profile: string
  /** The stream's id: `depositStreamId`, or `transferStreamId` of its query. */
  readonly stream: string
  /** The checkpoint as `Checkpoint.encode` writes it (`{"time":…,"ids":[…]}`): the newest record written. */
  readonly checkpoint: string
  /** When the row was last written (Unix ms; text from PostgreSQL's driver). */
  readonly updated_at: number | string
  /** Where the stream's stored history starts (Unix ms; 0: all of it); NULL for a row of the first schema. */
  readonly covered_since: number | string | null
  /** The start of a backfill under way (Unix ms), else NULL. */
  readonly backfill_since: number | string | null
  /** How far the backfill under way has come (`Checkpoint.encode` JSON), else NULL. */
  readonly backfill_checkpoint: string | null
}

/**
 * A table of the database: its name, the columns of its primary key, and every column in the order
 * the table has them.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * const table: SyncDatabase.Table<SyncDatabase.DepositRow> = SyncDatabase.tables.deposits
 * assert.deepStrictEqual(table.key, ["profile", "tx_id", "coin", "network", "address"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Table<Row> {
  readonly name: string
  readonly key: ReadonlyArray<keyof Row & string>
  readonly columns: ReadonlyArray<keyof Row & string>
}

/**
 * The tables a sync writes, created and migrated when it opens the database (`@effect/sql`'s
 * migrator keeps its own table, `sync_migrations`).
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { SqlClient } from "@effect/sql"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Layer } from "effect"
 *
 * // The columns of a database opened (and so migrated) are the ones listed here, in that order:
 * const columns = await Effect.gen(function*() {
 *   yield* SyncDatabase.SyncDatabase
 *   const sql = yield* SqlClient.SqlClient
 *   const of = (table: string) => sql<{ readonly name: string }>`SELECT name FROM pragma_table_info(${table})`
 *   return (yield* of(SyncDatabase.tables.transfers.name)).map((c) => c.name)
 * }).pipe(
 *   Effect.provide(Layer.effect(SyncDatabase.SyncDatabase, SyncDatabase.make).pipe(
 *     Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))
 *   )),
 *   Effect.runPromise
 * )
 * assert.deepStrictEqual(columns, SyncDatabase.tables.transfers.columns)
 * assert.strictEqual(SyncDatabase.tables.checkpoints.name, "sync_checkpoints")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const tables: {
  readonly transfers: Table<TransferRow>
  readonly deposits: Table<DepositRow>
  readonly checkpoints: Table<CheckpointRow>
} = {
  transfers: {
    name: "transfers",
    key: ["profile", "tran_id"],
    columns: [
      "profile",
      "tran_id",
      "client_tran_id",
      "from_account",
      "to_account",
      "asset",
      "amount",
      "from_account_type",
      "to_account_type",
      "from_symbol",
      "to_symbol",
      "status",
      "timestamp"
    ]
  },
  deposits: {
    name: "deposits",
    key: ["profile", "tx_id", "coin", "network", "address"],
    columns: [
      "profile",
      "tx_id",
      "coin",
      "network",
      "address",
      "amount",
      "status",
      "address_tag",
      "unlock_confirm",
      "confirm_times",
      "insert_time",
      "memo"
    ]
  },
  checkpoints: {
    name: "sync_checkpoints",
    key: ["profile", "stream"],
    columns: [
      "profile",
      "stream",
      "checkpoint",
      "updated_at",
      "covered_since",
      "backfill_since",
      "backfill_checkpoint"
    ]
  }
}

/**
 * The profile of the single-key flags (`--api-key`, `BROKER_API_KEY`, …), and of every row a database
 * held before rows were kept per profile.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncDatabase.defaultProfile, "default")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultProfile: string = Store.defaultProfile

/**
 * The id the deposit stream's checkpoint is stored under (`sync_checkpoints.stream`).
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncDatabase.depositStreamId, '["deposits"]')
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const depositStreamId: string = JSON.stringify(["deposits"])

/**
 * The id a transfer stream's checkpoint is stored under (`sync_checkpoints.stream`): its query's
 * account types and accounts as a JSON array, `null` for the master account (the client's
 * `TransferPlan.key`). It is also what `sync --reset-stream` takes.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   SyncDatabase.transferStreamId({ fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" }),
 *   '["transfers","SPOT","FUTURES",null,"sub001@broker.test"]'
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const transferStreamId = (query: {
  readonly fromAccountType: string
  readonly toAccountType: string
  readonly fromAccount?: string | undefined
  readonly toAccount?: string | undefined
}): string => TransferPlan.key(query)

/**
 * A stream's row of `sync_checkpoints`, read back: its checkpoint (or the `CheckpointError` of a
 * damaged one, which a sync names and skips), where its stored history starts, and a backfill under
 * way.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * const stored: SyncDatabase.StoredStream = {
 *   checkpoint: Either.right({ time: 1700000000000, ids: ["42"] }),
 *   coveredSince: 0,
 *   backfill: undefined
 * }
 * // Every record of the stream up to its checkpoint is stored:
 * assert.ok(stored.coveredSince === 0 && Either.isRight(stored.checkpoint))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface StoredStream extends Columns.StoredStream {}

/**
 * One profile's rows in each table.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * const counts: SyncDatabase.Counts = { transfers: 14907, deposits: 4000 }
 * assert.strictEqual(counts.transfers + counts.deposits, 18907)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Counts {
  readonly transfers: number
  readonly deposits: number
}

/**
 * The database as one profile's reader sees it: its stored streams and its row counts, and the same
 * database for another profile.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const { acme, globex } = await Effect.gen(function*() {
 *   const database: SyncDatabase.Service = yield* SyncDatabase.SyncDatabase
 *   return { acme: yield* database.forProfile("acme").counts, globex: yield* database.forProfile("globex").streams }
 * }).pipe(Effect.provide(SyncDatabase.layer(":memory:")), Effect.runPromise)
 * assert.deepStrictEqual(acme, { transfers: 0, deposits: 0 })
 * assert.strictEqual(globex.size, 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** The profile whose rows these operations read (`defaultProfile` unless `forProfile` chose one). */
  readonly profile: string
  /** The same database, for another profile's rows. */
  readonly forProfile: (profile: string) => Service
  /** Every stored stream of the profile, by id (`depositStreamId`, `transferStreamId`). */
  readonly streams: Effect.Effect<ReadonlyMap<string, StoredStream>, SqlError>
  /** The profile's rows in each table. */
  readonly counts: Effect.Effect<Counts, SqlError>
}

/**
 * A synced database, opened for reading.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const profile = await Effect.runPromise(
 *   Effect.map(SyncDatabase.SyncDatabase, (database) => database.profile).pipe(
 *     Effect.provide(SyncDatabase.layer(":memory:"))
 *   )
 * )
 * assert.strictEqual(profile, SyncDatabase.defaultProfile)
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class SyncDatabase extends Context.Tag("@broker-history/cli/SyncDatabase")<SyncDatabase, Service>() {}

/**
 * The database could not be opened or prepared; the message names the database (never its
 * password), the driver's reason (`database "x" does not exist`, `connect ECONNREFUSED …`) and what
 * to check.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { Effect, Layer } from "effect"
 *
 * const error = await Effect.runPromise(
 *   Effect.flip(Effect.scoped(Layer.build(SyncDatabase.layer("/no/such/directory/sync.db"))))
 * )
 * assert.ok(error instanceof SyncDatabase.SyncSetupError)
 * assert.ok(error.message.startsWith("cannot open the SQLite database /no/such/directory/sync.db ("))
 * // A URL of any scheme but postgres:// or postgresql:// is refused, never taken for a file name:
 * const mistyped = await Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(SyncDatabase.layer("pg://u:pw@h/db")))))
 * assert.ok(mistyped.message.startsWith("cannot open the database: the name pg://u:***@h/db: the URL scheme pg: is not supported"))
 * ```
 *
 * @since 0.2.0
 * @category errors
 */
export class SyncSetupError extends Data.TaggedError("SyncSetupError")<{ readonly message: string }> {}

const reader = (store: Store.Service): Service => ({
  profile: store.profile,
  forProfile: (profile) => reader(store.forProfile(profile)),
  streams: store.streams,
  counts: store.counts
})

/**
 * The database behind the `SqlClient` in context (SQLite or PostgreSQL), its schema created or
 * migrated first: for a program that also queries the tables through that client.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 * import { SqlClient } from "@effect/sql"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Layer } from "effect"
 *
 * const DatabaseLive = Layer.effect(SyncDatabase.SyncDatabase, SyncDatabase.make).pipe(
 *   Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))
 * )
 * const amounts = await Effect.gen(function*() {
 *   const database = yield* SyncDatabase.SyncDatabase
 *   const sql = yield* SqlClient.SqlClient
 *   const rows = yield* sql<SyncDatabase.TransferRow>`
 *     SELECT * FROM transfers WHERE profile = ${database.profile} ORDER BY timestamp`
 *   return rows.map((row) => row.amount)
 * }).pipe(Effect.provide(DatabaseLive), Effect.runPromise)
 * assert.deepStrictEqual(amounts, [])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<Service, MigrationError | SqlError, SqlClient.SqlClient> = Effect.map(
  Store.make,
  reader
)

/**
 * The database `db` names, as `sync --db` takes it: a SQLite file path (created if missing;
 * `:memory:` for a throwaway one) or a `postgres://` URL (a password it lacks comes from `PGPASSWORD`,
 * as libpq reads it), its schema created or migrated on open; each driver (`better-sqlite3`, `pg`) is
 * loaded only when its database is opened. A value with any other URL scheme fails with
 * `SyncSetupError` before anything is created.
 *
 * @example
 * ```ts
 * import { Cli, SyncDatabase } from "@broker-history/cli"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * // `broker-history sync` against the reference service, then the database read back:
 * const db = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "sync-")), "history.db")
 * const { counts, streams } = await Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   yield* Cli.run([
 *     "node",
 *     "broker-history",
 *     "sync",
 *     `--db=${db}`,
 *     "--sub-accounts=sub001@broker.test",
 *     "--since=30d",
 *     `--base-url=${server.baseUrl}`,
 *     `--api-key=${ApiKeys.demo.apiKey}`,
 *     `--secret-key=${ApiKeys.demo.secretKey}`
 *   ])
 *   const read = Effect.flatMap(SyncDatabase.SyncDatabase, (database) =>
 *     Effect.all({ counts: database.counts, streams: database.streams }))
 *   return yield* Effect.provide(read, SyncDatabase.layer(db))
 * }).pipe(
 *   Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 500, deposits: 100, subAccounts: 2 } })),
 *   Effect.provide(NodeContext.layer),
 *   Effect.runPromise
 * )
 * assert.ok(counts.deposits > 0)
 * // Master→master, master→sub001 and sub001→master for each of the 4 pairs of SPOT and FUTURES, and the deposits:
 * assert.strictEqual(streams.size, 13)
 * assert.ok(streams.has(SyncDatabase.transferStreamId({ fromAccountType: "SPOT", toAccountType: "SPOT", toAccount: "sub001@broker.test" })))
 * Fs.rmSync(Path.dirname(db), { recursive: true })
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (db: string): Layer.Layer<SyncDatabase, SyncSetupError> =>
  Layer.project(Store.layer(db), Store.SyncStore, SyncDatabase, reader).pipe(
    Layer.mapError((error) => new SyncSetupError({ message: error.message }))
  )
