/**
 * The sync store's rows as its tables have them: records as column values, a batch cut into
 * statements (the last version of each key, at most `statementRows` rows a statement), and a
 * `sync_checkpoints` row read back into a `StoredStream`. Pure: the SQL is in `Store`.
 *
 * @internal
 */
import { Checkpoint } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Either from "effect/Either"

/** A transfer as a row of the `transfers` table (column names; every value as the record has it). */
export const transferRow = (t: TransferRecord.TransferRecord) => ({
  tran_id: t.tranId,
  client_tran_id: t.clientTranId,
  from_account: t.fromAccount,
  to_account: t.toAccount,
  asset: t.asset,
  amount: t.amount,
  from_account_type: t.fromAccountType,
  to_account_type: t.toAccountType,
  from_symbol: t.fromSymbol,
  to_symbol: t.toSymbol,
  status: t.status,
  timestamp: t.timestamp
})

/** A deposit as a row of the `deposits` table (column names; every value as the record has it). */
export const depositRow = (d: DepositRecord.DepositRecord) => ({
  tx_id: d.txId,
  coin: d.coin,
  network: d.network,
  address: d.address,
  amount: d.amount,
  status: d.status,
  address_tag: d.addressTag,
  unlock_confirm: d.unlockConfirm,
  confirm_times: d.confirmTimes,
  insert_time: d.insertTime,
  memo: d.memo
})

/** The key of a `transfers` row (besides its profile). */
export const transferKey = (t: TransferRecord.TransferRecord): string => t.tranId

/** The key of a `deposits` row (besides its profile): txId, coin, network and address. */
export const depositKey = (d: DepositRecord.DepositRecord): string =>
  JSON.stringify([d.txId, d.coin, d.network, d.address])

// Rows per INSERT statement: 13 columns (the profile and 12) x 2,000 rows stays below the bound
// parameters a statement may have (SQLite 32,766, PostgreSQL 65,535), so a batch of the default
// size is one statement.
export const statementRows = 2000

/** The last of each key: one statement may not upsert a row twice (PostgreSQL refuses). */
export const lastByKey = <A>(records: ReadonlyArray<A>, key: (a: A) => string): ReadonlyArray<A> => {
  const byKey = new Map<string, A>()
  for (const r of records) {
    const k = key(r)
    byKey.delete(k)
    byKey.set(k, r)
  }
  return [...byKey.values()]
}

/** `items` in runs of `size` (the last one shorter), in order. */
export const chunks = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** A batch as the rows of its INSERT statements: the last of each key, `statementRows` a statement. */
export const statements = <A>(
  records: ReadonlyArray<A>,
  key: (a: A) => string
): ReadonlyArray<ReadonlyArray<A>> => chunks(lastByKey(records, key), statementRows)

/** A BIGINT column as Unix ms (PostgreSQL returns it as text); NULL or a non-time is `undefined`. */
export const time = (value: number | string | null): number | undefined => {
  if (value === null) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/**
 * A stream's row of `sync_checkpoints`, read back: its checkpoint (or the `CheckpointError` of a damaged
 * one, which the sync names and skips), where its stored history starts, and a backfill under way.
 */
export interface StoredStream {
  readonly checkpoint: Either.Either<Checkpoint.Checkpoint, Checkpoint.CheckpointError>
  /** Where the stream's stored history starts (Unix ms); `undefined` for a row of the first schema. */
  readonly coveredSince: number | undefined
  /** A backfill under way: every record from `since` up to `checkpoint` is stored. */
  readonly backfill: { readonly since: number; readonly checkpoint: Checkpoint.Checkpoint } | undefined
}

/** A row of `sync_checkpoints` as it is selected. */
export interface CheckpointRow {
  readonly stream: string
  readonly checkpoint: string
  readonly covered_since: number | string | null
  readonly backfill_since: number | string | null
  readonly backfill_checkpoint: string | null
}

/**
 * A stream's stored position: a damaged checkpoint is kept as its error; backfill progress counts
 * only when both its start and its checkpoint can be read.
 */
export const storedStream = (r: CheckpointRow): StoredStream => {
  const progress = r.backfill_checkpoint === null ? undefined : Checkpoint.decode(r.backfill_checkpoint)
  return {
    checkpoint: Checkpoint.decode(r.checkpoint),
    coveredSince: time(r.covered_since),
    backfill: progress !== undefined && Either.isRight(progress) && time(r.backfill_since) !== undefined
      ? { since: time(r.backfill_since)!, checkpoint: progress.right }
      : undefined
  }
}
