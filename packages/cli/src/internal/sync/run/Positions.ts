/**
 * Where each stream of a sync starts, read from what the store holds: its checkpoint and where its
 * stored history starts, a backfill left unfinished, or why the stream is skipped (damaged). Pure:
 * the stored rows and the clock in, the positions out.
 *
 * @internal
 */
import type { Checkpoint } from "@broker-history/client"
import * as Either from "effect/Either"
import type { StoredStream } from "../store/Columns.js"

/** Where a stream stands: its checkpoint, and where its stored history starts. */
export interface Position {
  readonly checkpoint: Checkpoint.Checkpoint
  readonly coveredSince: number
}

/** A backfill under way: every record from `since` up to `checkpoint` is stored. */
export interface Backfill {
  readonly since: number
  readonly checkpoint: Checkpoint.Checkpoint
}

/** The streams of a plan as the store holds them; a stream in none of the maps has no row yet. */
export interface Positions {
  readonly positions: Map<string, Position>
  readonly pending: Map<string, Backfill>
  /** Damaged streams by id, each with its problem in one sentence. */
  readonly damaged: Map<string, string>
}

/** A stream skipped because its stored checkpoint cannot be used, with the reason in one sentence. */
export interface Damaged {
  readonly stream: string
  readonly problem: string
}

/** A checkpoint more than this ahead of the local clock is damaged without asking the service. */
export const futureMargin = 86_400_000

/** The problem of a checkpoint whose time is after the service's now. */
export const futureProblem = (time: number): string =>
  `its time ${time} (${
    new Date(time).toISOString()
  }) is after the service's now, so it cannot have been written by a sync`

/**
 * What is stored for the plan's streams (`ids`) at `now`. A checkpoint that cannot be used marks its
 * stream as damaged; a row of the first schema (no covered range) counts as covered from its
 * checkpoint only, since what its first run covered is not known. Rows of other streams are ignored.
 */
export const read = (stored: ReadonlyMap<string, StoredStream>, ids: ReadonlyArray<string>, now: number): Positions => {
  const positions = new Map<string, Position>()
  const pending = new Map<string, Backfill>()
  const damaged = new Map<string, string>()
  for (const id of ids) {
    const row = stored.get(id)
    if (row === undefined) continue
    if (Either.isLeft(row.checkpoint)) {
      damaged.set(id, row.checkpoint.left.message)
      continue
    }
    const checkpoint = row.checkpoint.right
    // Far in the future: refused before any request (a backfill up to it could be endless).
    if (checkpoint.time > now + futureMargin) {
      damaged.set(id, futureProblem(checkpoint.time))
      continue
    }
    positions.set(id, { checkpoint, coveredSince: Math.min(row.coveredSince ?? checkpoint.time, checkpoint.time) })
    if (row.backfill !== undefined) pending.set(id, row.backfill)
  }
  return { positions, pending, damaged }
}

/**
 * Where a backfill of [since, coveredSince) resumes: after the progress of an earlier run if that
 * covers everything from `since` up to its checkpoint, else from the start (`undefined`).
 */
export const resumeFrom = (
  earlier: Backfill | undefined,
  since: number,
  coveredSince: number
): Checkpoint.Checkpoint | undefined =>
  earlier !== undefined && earlier.since <= since && earlier.checkpoint.time >= since &&
    earlier.checkpoint.time < coveredSince
    ? earlier.checkpoint
    : undefined

/** A stream as far as where it starts: its kind, and when its history begins if known (a sub-account's creation). */
export interface Start {
  readonly kind: "transfers" | "deposits"
  readonly startsAt?: number | undefined
}

/** Where a stream's history starts in this run: its kind's `since`, or its own start when that is later. */
export const startOf = (
  since: { readonly transfers: number; readonly deposits: number },
  stream: Start
): number => Math.max(since[stream.kind], stream.startsAt ?? 0)

/**
 * Per kind, the latest start of a stream's stored history (Unix ms), over the streams that are not
 * damaged; a stream without a position starts where this run starts it (`startOf`), and one that
 * holds everything from when its history begins (`startsAt`) counts as whole. 0 when every stream
 * holds its whole history (or there is none).
 */
export const coveredFrom = (
  streams: ReadonlyArray<Start & { readonly id: string }>,
  positions: ReadonlyMap<string, Position>,
  damaged: ReadonlyMap<string, string>,
  since: { readonly transfers: number; readonly deposits: number }
): { transfers: number; deposits: number } => {
  const covered = { transfers: 0, deposits: 0 }
  for (const stream of streams) {
    if (damaged.has(stream.id)) continue
    const start = positions.get(stream.id)?.coveredSince ?? startOf(since, stream)
    const whole = stream.startsAt !== undefined && start <= stream.startsAt
    covered[stream.kind] = Math.max(covered[stream.kind], whole ? 0 : start)
  }
  return covered
}

/**
 * The accounts the stored transfer streams name (their ids are `["transfers", FROM_TYPE, TO_TYPE,
 * FROM, TO]`, `null` for the master account): the sub-accounts an earlier run already synced.
 */
export const namedAccounts = (ids: Iterable<string>): Set<string> => {
  const named = new Set<string>()
  for (const id of ids) {
    let parsed: unknown
    try {
      parsed = JSON.parse(id)
    } catch {
      continue
    }
    if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== "transfers") continue
    for (const account of parsed.slice(3)) if (typeof account === "string") named.add(account)
  }
  return named
}
