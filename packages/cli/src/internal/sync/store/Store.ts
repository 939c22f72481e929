/**
 * The database a sync writes: `transfers` (keyed by `tranId`), `deposits` (keyed by txId + coin +
 * network + address) and `sync_checkpoints` (one row per stream: its checkpoint, where its stored
 * history starts, and the progress of a backfill), each row also keyed by its profile (the broker
 * key it was read with), so several keys share one database without sharing a row or a checkpoint.
 * Every write is one transaction: the batch's rows are upserted and the stream's position stored
 * with them, so after a crash no position claims rows that are not there, and re-applying rows is
 * harmless. A write, once started, is not interrupted (SIGINT/SIGTERM let it commit).
 *
 * SQLite (a file path) through `@effect/sql-sqlite-node`, PostgreSQL (`postgres://…`) through
 * `@effect/sql-pg`; the same SQL serves both.
 *
 * @internal
 */
import { Checkpoint } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Columns from "./Columns.js"
import * as DatabaseName from "./DatabaseName.js"
import * as Migrations from "./Migrations.js"

/**
 * The sync database could not be opened or prepared; the message names the database (never its
 * password), the driver's reason (`database "x" does not exist`, `connect ECONNREFUSED …`) and what
 * to check.
 */
export class SyncSetupError extends Data.TaggedError("SyncSetupError")<{ readonly message: string }> {}

/** The row counts of both tables. */
export interface Counts {
  readonly transfers: number
  readonly deposits: number
}

/**
 * What a write stores with its rows: the stream's new checkpoint (and where its history starts), or the
 * progress of a backfill of the range before it (the checkpoint is then left alone).
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
 */
export class SyncStore extends Context.Tag("@broker-history/cli/SyncStore")<SyncStore, Service>() {}

/** The store's operations for one profile: every read and write below touches that profile's rows only. */
export interface Service {
  /** The profile whose rows these operations read and write (`default` unless `forProfile` chose one). */
  readonly profile: string
  /** The same database, for another profile's rows. */
  readonly forProfile: (profile: string) => Service
  /** Every stored stream of the profile by id. */
  readonly streams: Effect.Effect<ReadonlyMap<string, Columns.StoredStream>, SqlError>
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
 */
export const defaultProfile = "default"

/** The store's operations on one profile's rows, in SQL that SQLite and PostgreSQL both run. */
const forProfile = (sql: SqlClient.SqlClient, profile: string): Service => {
  // A new row starts where the stream was first read from; an existing row keeps its backfill progress.
  const savePosition = (stream: string, position: Position) =>
    position._tag === "Checkpoint"
      ? sql`
          INSERT INTO sync_checkpoints ${
        sql.insert({
          profile,
          stream,
          checkpoint: Checkpoint.encode(position.checkpoint),
          covered_since: position.coveredSince,
          updated_at: Date.now()
        })
      }
          ON CONFLICT (profile, stream) DO UPDATE SET checkpoint = excluded.checkpoint,
            covered_since = excluded.covered_since, updated_at = excluded.updated_at`
      // A backfill runs only for a stream that has a row: it never creates one.
      : sql`
          UPDATE sync_checkpoints SET backfill_since = ${position.since},
            backfill_checkpoint = ${Checkpoint.encode(position.checkpoint)}, updated_at = ${Date.now()}
          WHERE profile = ${profile} AND stream = ${stream}`

  const upsertTransfers = (records: ReadonlyArray<TransferRecord.TransferRecord>) =>
    Effect.forEach(
      Columns.statements(records, Columns.transferKey),
      (rows) =>
        sql`
            INSERT INTO transfers ${sql.insert(rows.map((t) => ({ profile, ...Columns.transferRow(t) })))}
            ON CONFLICT (profile, tran_id) DO UPDATE SET
              client_tran_id = excluded.client_tran_id, from_account = excluded.from_account,
              to_account = excluded.to_account, asset = excluded.asset, amount = excluded.amount,
              from_account_type = excluded.from_account_type, to_account_type = excluded.to_account_type,
              from_symbol = excluded.from_symbol, to_symbol = excluded.to_symbol, status = excluded.status,
              timestamp = excluded.timestamp`,
      { discard: true }
    )

  const upsertDeposits = (records: ReadonlyArray<DepositRecord.DepositRecord>) =>
    Effect.forEach(
      Columns.statements(records, Columns.depositKey),
      (rows) =>
        sql`
            INSERT INTO deposits ${sql.insert(rows.map((d) => ({ profile, ...Columns.depositRow(d) })))}
            ON CONFLICT (profile, tx_id, coin, network, address) DO UPDATE SET
              amount = excluded.amount, status = excluded.status, address_tag = excluded.address_tag,
              unlock_confirm = excluded.unlock_confirm, confirm_times = excluded.confirm_times,
              insert_time = excluded.insert_time, memo = excluded.memo`,
      { discard: true }
    )

  const apply = <A>(upsert: (records: ReadonlyArray<A>) => Effect.Effect<void, SqlError>) =>
  (
    stream: string,
    records: ReadonlyArray<A>,
    position: Position | undefined
  ) =>
    Effect.uninterruptible(sql.withTransaction(Effect.gen(function*() {
      if (records.length > 0) yield* upsert(records)
      if (position !== undefined) yield* savePosition(stream, position)
    })))

  const completeBackfill = (stream: string, coveredSince: number) =>
    Effect.uninterruptible(
      sql`
          UPDATE sync_checkpoints SET covered_since = ${coveredSince}, backfill_since = NULL,
            backfill_checkpoint = NULL, updated_at = ${Date.now()}
          WHERE profile = ${profile} AND stream = ${stream}`
    ).pipe(Effect.asVoid)

  const reset = (streams: ReadonlyArray<string> | "all") =>
    Effect.uninterruptible(sql.withTransaction(Effect.gen(function*() {
      const rows = yield* sql<{ stream: string }>`SELECT stream FROM sync_checkpoints WHERE profile = ${profile}`
      const present = rows.map((r) => r.stream).filter((id) => streams === "all" || streams.includes(id))
      for (const id of present) {
        yield* sql`DELETE FROM sync_checkpoints WHERE profile = ${profile} AND stream = ${id}`
      }
      return present
    })))

  const streams = Effect.map(
    sql<
      Columns.CheckpointRow
    >`SELECT stream, checkpoint, covered_since, backfill_since, backfill_checkpoint FROM sync_checkpoints
        WHERE profile = ${profile}`,
    (rows) => new Map(rows.map((r) => [r.stream, Columns.storedStream(r)] as const))
  )

  const counts = Effect.map(
    sql<{ transfers: number | string; deposits: number | string }>`
        SELECT (SELECT COUNT(*) FROM transfers WHERE profile = ${profile}) AS transfers,
          (SELECT COUNT(*) FROM deposits WHERE profile = ${profile}) AS deposits`,
    ([row]) => ({ transfers: Number(row.transfers), deposits: Number(row.deposits) })
  )

  return {
    profile,
    forProfile: (other) => forProfile(sql, other),
    streams,
    applyTransfers: apply(upsertTransfers),
    applyDeposits: apply(upsertDeposits),
    completeBackfill,
    reset,
    counts
  }
}

/** Builds the store over the `SqlClient` in context (SQLite or PostgreSQL), migrating the schema first. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* Migrations.run
  return forProfile(sql, defaultProfile)
})

/**
 * The store in `db`, a SQLite file path (created if missing; `:memory:` for a throwaway one) or a
 * `postgres://` URL (a password it lacks comes from `PGPASSWORD`, as libpq reads it), with the schema
 * migrated on open; each driver is loaded only when its database is opened. A value with any other
 * URL scheme fails with `SyncSetupError` before anything is created.
 */
export const layer = (db: string): Layer.Layer<SyncStore, SyncSetupError> => {
  // A URL of another scheme (or postgres: without //) is never taken for a SQLite file name.
  if (DatabaseName.scheme(db) !== undefined && DatabaseName.problem(db, "--db") !== undefined) {
    return Layer.fail(new SyncSetupError({ message: DatabaseName.setupMessage(db, undefined) }))
  }
  // Each driver is loaded when its database is opened: the export commands load neither.
  const client: Layer.Layer<SqlClient.SqlClient, unknown> = DatabaseName.isPostgres(db)
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
  return Layer.effect(SyncStore, make).pipe(
    Layer.provide(client),
    // Opening a SQLite file in a missing directory throws (a defect): it is a setup failure too.
    Layer.catchAllCause((cause) => {
      const failure = Cause.squash(cause)
      return Layer.fail(
        failure instanceof SyncSetupError
          ? failure
          : new SyncSetupError({ message: DatabaseName.setupMessage(db, failure, process.env.PGPASSWORD) })
      )
    })
  )
}
