/**
 * The sync store's SQL for one profile's rows, the same for SQLite and PostgreSQL: the upserts of a
 * batch with its stream's position in one uninterruptible transaction, backfill completion, checkpoint
 * resets, and the reads of stored streams and row counts.
 *
 * @internal
 */
import { Checkpoint } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type { Position, Service } from "../SyncStore.js"
import * as SyncStoreColumns from "./SyncStoreColumns.js"

/** The store's operations on one profile's rows. */
export const forProfile = (sql: SqlClient.SqlClient, dialect: "sqlite" | "pg", profile: string): Service => {
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
      SyncStoreColumns.statements(records, SyncStoreColumns.transferKey),
      (rows) =>
        sql`
            INSERT INTO transfers ${sql.insert(rows.map((t) => ({ profile, ...SyncStoreColumns.transferRow(t) })))}
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
      SyncStoreColumns.statements(records, SyncStoreColumns.depositKey),
      (rows) =>
        sql`
            INSERT INTO deposits ${sql.insert(rows.map((d) => ({ profile, ...SyncStoreColumns.depositRow(d) })))}
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
      SyncStoreColumns.CheckpointRow
    >`SELECT stream, checkpoint, covered_since, backfill_since, backfill_checkpoint FROM sync_checkpoints
        WHERE profile = ${profile}`,
    (rows) => new Map(rows.map((r) => [r.stream, SyncStoreColumns.storedStream(r)] as const))
  )

  const counts = Effect.map(
    sql<{ transfers: number | string; deposits: number | string }>`
        SELECT (SELECT COUNT(*) FROM transfers WHERE profile = ${profile}) AS transfers,
          (SELECT COUNT(*) FROM deposits WHERE profile = ${profile}) AS deposits`,
    ([row]) => ({ transfers: Number(row.transfers), deposits: Number(row.deposits) })
  )

  return {
    dialect,
    profile,
    forProfile: (other) => forProfile(sql, dialect, other),
    streams,
    applyTransfers: apply(upsertTransfers),
    applyDeposits: apply(upsertDeposits),
    completeBackfill,
    reset,
    counts
  }
}
