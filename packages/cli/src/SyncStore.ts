/**
 * The database a sync writes: `transfers` (keyed by `tranId`), `deposits` (keyed by txId + coin +
 * network + address) and `sync_checkpoints` (one row per stream: its checkpoint, where its stored
 * history starts, and the progress of a backfill), each row also keyed by its profile (the broker
 * key it was read with), so several keys share one database without sharing a row or a checkpoint. Every write is one transaction: the batch's rows
 * are upserted and the stream's position stored with them, so after a crash no position claims rows
 * that are not there, and re-applying rows is harmless. A write, once started, is not interrupted
 * (SIGINT/SIGTERM let it commit).
 *
 * SQLite (a file path) through `@effect/sql-sqlite-node`, PostgreSQL (`postgres://…`) through
 * `@effect/sql-pg`; the same SQL serves both.
 *
 * @since 0.1.0
 */
import type { Checkpoint } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as SyncDatabaseName from "./internal/SyncDatabaseName.js"
import * as SyncStoreColumns from "./internal/SyncStoreColumns.js"
import * as SyncStoreQueries from "./internal/SyncStoreQueries.js"
import * as SyncMigrations from "./SyncMigrations.js"

/**
 * The sync database could not be opened or prepared; the message names the database (never its
 * password), the driver's reason (`database "x" does not exist`, `connect ECONNREFUSED …`) and what
 * to check.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 * import { Effect, Layer } from "effect"
 *
 * const error = await Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(SyncStore.layer("/no/such/directory/sync.db")))))
 * assert.ok(error instanceof SyncStore.SyncSetupError)
 * assert.ok(error.message.startsWith("cannot open the SQLite database /no/such/directory/sync.db ("))
 * assert.ok(error.message.endsWith("check --db or BROKER_DB (the directory must exist and be writable)"))
 *
 * // A URL of any scheme but postgres:// or postgresql:// is refused, never taken for a file name:
 * const mistyped = await Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(SyncStore.layer("pg://u:pw@h/db")))))
 * assert.ok(mistyped.message.startsWith("cannot open the database: the name pg://u:***@h/db: the URL scheme pg: is not supported"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class SyncSetupError extends Data.TaggedError("SyncSetupError")<{ readonly message: string }> {}

/**
 * A transfer as a row of the `transfers` table (column names; every value as the record has it).
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 * import { TransferRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const transfer = Schema.decodeUnknownSync(TransferRecord.TransferRecord)({
 *   tranId: 11945860693,
 *   asset: "USDT",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * })
 * const row = SyncStore.transferRow(transfer)
 * assert.deepStrictEqual([row.tran_id, row.amount, row.client_tran_id, row.timestamp], [
 *   "11945860693",
 *   "0.10000000",
 *   "",
 *   1544433325000
 * ])
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const transferRow = SyncStoreColumns.transferRow

/**
 * A deposit as a row of the `deposits` table (column names; every value as the record has it).
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 * import { DepositRecord } from "@broker-history/domain"
 * import { Schema } from "effect"
 *
 * const deposit = Schema.decodeUnknownSync(DepositRecord.DepositRecord)({
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   network: "TRC20",
 *   status: 5,
 *   address: "TXyz",
 *   txId: "0xabc",
 *   unlockConfirm: 20,
 *   confirmTimes: 20,
 *   insertTime: 1654064568000
 * })
 * const row = SyncStore.depositRow(deposit)
 * assert.deepStrictEqual([row.tx_id, row.coin, row.network, row.address], ["0xabc", "USDT", "TRC20", "TXyz"]) // the key
 * assert.deepStrictEqual([row.status, row.address_tag, row.insert_time], ["5", "", 1654064568000])
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const depositRow = SyncStoreColumns.depositRow

/**
 * The row counts of both tables.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const empty: SyncStore.Counts = await Effect.runPromise(
 *   Effect.flatMap(SyncStore.SyncStore, (store) => store.counts).pipe(Effect.provide(SyncStore.layer(":memory:")))
 * )
 * assert.deepStrictEqual(empty, { transfers: 0, deposits: 0 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Counts {
  readonly transfers: number
  readonly deposits: number
}

/**
 * A stream's row of `sync_checkpoints`, read back: its checkpoint (or the `CheckpointError` of a damaged
 * one, which the sync names and skips), where its stored history starts, and a backfill under way.
 *
 * @example
 * ```ts
 * import { SyncPlan, SyncStore } from "@broker-history/cli"
 * import { SqlClient } from "@effect/sql"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Either, Layer } from "effect"
 *
 * const StoreLive = Layer.effect(SyncStore.SyncStore, SyncStore.make("sqlite")).pipe(
 *   Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" }))
 * )
 * const streams = await Effect.gen(function*() {
 *   const store = yield* SyncStore.SyncStore
 *   const checkpoint = { time: 1700000000000, ids: ["42"] }
 *   yield* store.applyDeposits(SyncPlan.depositStreamId, [], { _tag: "Checkpoint", checkpoint, coveredSince: 0 })
 *   const sql = yield* SqlClient.SqlClient
 *   yield* sql`INSERT INTO sync_checkpoints (profile, stream, checkpoint, updated_at) VALUES ('default', '["other"]', '{garbage', 0)`
 *   return yield* store.streams
 * }).pipe(Effect.provide(StoreLive), Effect.runPromise)
 * const deposits: SyncStore.StoredStream | undefined = streams.get(SyncPlan.depositStreamId)
 * assert.deepStrictEqual(deposits, {
 *   checkpoint: Either.right({ time: 1700000000000, ids: ["42"] }),
 *   coveredSince: 0,
 *   backfill: undefined
 * })
 * assert.ok(Either.isLeft(streams.get('["other"]')!.checkpoint)) // damaged: kept as its error
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredStream {
  readonly checkpoint: Either.Either<Checkpoint.Checkpoint, Checkpoint.CheckpointError>
  /** Where the stream's stored history starts (Unix ms); `undefined` for a row of the first schema. */
  readonly coveredSince: number | undefined
  /** A backfill under way: every record from `since` up to `checkpoint` is stored. */
  readonly backfill: { readonly since: number; readonly checkpoint: Checkpoint.Checkpoint } | undefined
}

/**
 * What a write stores with its rows: the stream's new checkpoint (and where its history starts), or the
 * progress of a backfill of the range before it (the checkpoint is then left alone).
 *
 * @example
 * ```ts
 * import { SyncPlan, SyncStore } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const stream = SyncPlan.depositStreamId
 * const caughtUp: SyncStore.Position = { _tag: "Checkpoint", checkpoint: { time: 2000, ids: ["9"] }, coveredSince: 1000 }
 * const backfilling: SyncStore.Position = { _tag: "Backfill", since: 0, checkpoint: { time: 500, ids: ["3"] } }
 * const stored = await Effect.gen(function*() {
 *   const store = yield* SyncStore.SyncStore
 *   yield* store.applyDeposits(stream, [], caughtUp)
 *   yield* store.applyDeposits(stream, [], backfilling)
 *   const during = (yield* store.streams).get(stream)
 *   yield* store.completeBackfill(stream, 0)
 *   return { during, after: (yield* store.streams).get(stream) }
 * }).pipe(Effect.provide(SyncStore.layer(":memory:")), Effect.runPromise)
 * assert.deepStrictEqual([stored.during?.coveredSince, stored.during?.backfill], [1000, { since: 0, checkpoint: { time: 500, ids: ["3"] } }])
 * assert.deepStrictEqual([stored.after?.coveredSince, stored.after?.backfill], [0, undefined])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Position =
  | {
    readonly _tag: "Checkpoint"
    readonly checkpoint: Checkpoint.Checkpoint
    readonly coveredSince: number
  }
  | {
    readonly _tag: "Backfill"
    readonly since: number
    readonly checkpoint: Checkpoint.Checkpoint
  }

/**
 * The sync database: the stored streams, the upserts of a batch with its stream's position in one
 * transaction, backfill completion, checkpoint resets and row counts.
 *
 * @example
 * ```ts
 * import { SyncPlan, SyncStore } from "@broker-history/cli"
 * import { DepositRecord } from "@broker-history/domain"
 * import { Seed } from "@broker-history/server"
 * import { Effect, Schema } from "effect"
 *
 * // Three deposits as the client receives them:
 * const deposits = Schema.decodeUnknownSync(DepositRecord.DepositPage)(
 *   Seed.deposits({ seed: 1, transfers: 0, deposits: 3 })
 * )
 * const counts = await Effect.gen(function*() {
 *   const store = yield* SyncStore.SyncStore
 *   yield* store.applyDeposits(SyncPlan.depositStreamId, deposits, undefined)
 *   yield* store.applyDeposits(SyncPlan.depositStreamId, deposits, undefined) // upserts: nothing duplicates
 *   return yield* store.counts
 * }).pipe(Effect.provide(SyncStore.layer(":memory:")), Effect.runPromise)
 * assert.deepStrictEqual(counts, { transfers: 0, deposits: 3 })
 * ```
 *
 * @since 0.1.0
 * @category services
 */
export class SyncStore extends Context.Tag("@broker-history/cli/SyncStore")<SyncStore, Service>() {}

/**
 * The store's operations for one profile: every read and write below touches that profile's rows only.
 *
 * @example
 * ```ts
 * import { SyncPlan, SyncStore } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const checkpoint = { time: 1700000000000, ids: ["42"] }
 * const [acme, globex] = await Effect.gen(function*() {
 *   const store: SyncStore.Service = yield* SyncStore.SyncStore
 *   yield* store.forProfile("acme").applyDeposits(SyncPlan.depositStreamId, [], { _tag: "Checkpoint", checkpoint, coveredSince: 0 })
 *   return [yield* store.forProfile("acme").streams, yield* store.forProfile("globex").streams]
 * }).pipe(Effect.provide(SyncStore.layer(":memory:")), Effect.runPromise)
 * assert.deepStrictEqual([acme.size, globex.size], [1, 0]) // checkpoints are kept per profile
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** `sqlite` or `pg`. */
  readonly dialect: "sqlite" | "pg"
  /** The profile whose rows these operations read and write (`default` unless `forProfile` chose one). */
  readonly profile: string
  /** The same database, for another profile's rows. */
  readonly forProfile: (profile: string) => Service
  /** Every stored stream of the profile by id. */
  readonly streams: Effect.Effect<ReadonlyMap<string, StoredStream>, SqlError>
  /** Upserts transfers and, when given, stores the stream's position, in one transaction. */
  readonly applyTransfers: (
    stream: string,
    records: ReadonlyArray<TransferRecord.TransferRecord>,
    position: Position | undefined
  ) => Effect.Effect<void, SqlError>
  /** Upserts deposits and, when given, stores the stream's position, in one transaction. */
  readonly applyDeposits: (
    stream: string,
    records: ReadonlyArray<DepositRecord.DepositRecord>,
    position: Position | undefined
  ) => Effect.Effect<void, SqlError>
  /**
   * Ends a backfill whose rows are all stored: the stream's history now starts at `coveredSince`,
   * and its backfill progress is cleared.
   */
  readonly completeBackfill: (stream: string, coveredSince: number) => Effect.Effect<void, SqlError>
  /**
   * Deletes the rows of these streams (or of every stream) from `sync_checkpoints`, in one
   * transaction; their records stay. Returns the ids that had a row.
   */
  readonly reset: (streams: ReadonlyArray<string> | "all") => Effect.Effect<ReadonlyArray<string>, SqlError>
  /** The profile's rows in each table. */
  readonly counts: Effect.Effect<Counts, SqlError>
}

/**
 * The profile of the single-key flags (`--api-key`, `BROKER_API_KEY`, …), and of every row a database
 * held before rows were kept per profile.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncStore.defaultProfile, "default")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultProfile = "default"

/**
 * Builds the store over the `SqlClient` in context for a dialect, migrating the schema first.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Layer } from "effect"
 *
 * const StoreLive = Layer.effect(SyncStore.SyncStore, SyncStore.make("sqlite")).pipe(
 *   Layer.provide(SqliteClient.layer({ filename: ":memory:" }))
 * )
 * const dialect = await Effect.runPromise(Effect.map(SyncStore.SyncStore, (store) => store.dialect).pipe(Effect.provide(StoreLive)))
 * assert.strictEqual(dialect, "sqlite")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (dialect: "sqlite" | "pg") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* SyncMigrations.run
    return SyncStoreQueries.forProfile(sql, dialect, defaultProfile)
  })

/**
 * True for a PostgreSQL URL (`postgres://` or `postgresql://`); anything else is a SQLite file path.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncStore.isPostgres("postgres://u@127.0.0.1/db"), true)
 * assert.strictEqual(SyncStore.isPostgres("POSTGRESQL://u@127.0.0.1/db"), true)
 * assert.strictEqual(SyncStore.isPostgres("./sync.db"), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isPostgres: (db: string) => boolean = SyncDatabaseName.isPostgres

/**
 * The database named for messages, without its password: also in a URL that does not parse, one of
 * another scheme (a mistyped `postgress://`, `postgres:` without `//`) and a `password` query parameter.
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncStore.describe("postgres://u:secret@h/db"), "postgres://u:***@h/db")
 * assert.strictEqual(SyncStore.describe("postgres://u:se@cret@[bad/db"), "postgres://u:***@[bad/db")
 * assert.strictEqual(SyncStore.describe("postgress://u:secret@h/db"), "postgress://u:***@h/db")
 * assert.strictEqual(SyncStore.describe("postgres:u:secret@h/db"), "postgres:***@h/db")
 * assert.strictEqual(SyncStore.describe("postgres://u@h/db?password=secret"), "postgres://u@h/db?password=***")
 * assert.strictEqual(SyncStore.describe("sync.db"), "sync.db")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const describe: (db: string) => string = SyncDatabaseName.describe

/**
 * The store in `db`, a SQLite file path (created if missing; `:memory:` for a throwaway one) or a
 * `postgres://` URL (a password it lacks comes from `PGPASSWORD`, as libpq reads it), with the schema
 * migrated on open; each driver is loaded only when its database is opened. A value with any other
 * URL scheme fails with `SyncSetupError` before anything is created.
 *
 * @example
 * ```ts
 * import { SyncPlan, SyncStore } from "@broker-history/cli"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * const db = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "sync-")), "sync.db")
 * const checkpoint = { time: 1700000000000, ids: ["42"] }
 * const save = Effect.flatMap(SyncStore.SyncStore, (store) =>
 *   store.applyTransfers(SyncPlan.transferStream({ fromAccountType: "SPOT", toAccountType: "SPOT" }).id, [], {
 *     _tag: "Checkpoint",
 *     checkpoint,
 *     coveredSince: 0
 *   }))
 * await Effect.runPromise(Effect.provide(save, SyncStore.layer(db)))
 * // Opened again (the schema is already migrated), the file keeps the checkpoint:
 * const ids = await Effect.runPromise(
 *   Effect.flatMap(SyncStore.SyncStore, (store) => store.streams).pipe(Effect.provide(SyncStore.layer(db)))
 * )
 * assert.deepStrictEqual([...ids.keys()], ['["transfers","SPOT","SPOT",null,null]'])
 * Fs.rmSync(Path.dirname(db), { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (db: string): Layer.Layer<SyncStore, SyncSetupError> => {
  // A URL of another scheme (or postgres: without //) is never taken for a SQLite file name.
  if (SyncDatabaseName.scheme(db) !== undefined && SyncDatabaseName.problem(db, "--db") !== undefined) {
    return Layer.fail(new SyncSetupError({ message: SyncDatabaseName.setupMessage(db, undefined) }))
  }
  // Each driver is loaded when its database is opened: the export commands load neither.
  const client: Layer.Layer<SqlClient.SqlClient, unknown> = isPostgres(db)
    ? Layer.unwrapEffect(Effect.map(
      Effect.promise(() => import("@effect/sql-pg/PgClient")),
      (PgClient) =>
        // Without a connect timeout a pool connection to a host that stopped answering waits for the
        // operating system (minutes); with one it fails as a transient failure a follower retries.
        PgClient.layer({ url: Redacted.make(db), applicationName: "broker-history sync", connectTimeout: "10 seconds" })
    ))
    : Layer.unwrapEffect(Effect.map(
      Effect.promise(() => import("@broker-history/server/Store")).pipe(
        Effect.flatMap((Store) => Store.sqliteDriver),
        Effect.mapError((missing) => new SyncSetupError({ message: missing.message }))
      ),
      (SqliteClient) => SqliteClient.layer({ filename: db })
    ))
  return Layer.effect(SyncStore, make(isPostgres(db) ? "pg" : "sqlite")).pipe(
    Layer.provide(client),
    // Opening a SQLite file in a missing directory throws (a defect): it is a setup failure too.
    Layer.catchAllCause((cause) => {
      const failure = Cause.squash(cause)
      return Layer.fail(
        failure instanceof SyncSetupError
          ? failure
          : new SyncSetupError({ message: SyncDatabaseName.setupMessage(db, failure, process.env.PGPASSWORD) })
      )
    })
  )
}
