/**
 * Pending transfers that settle later, as on the exchange, where a transfer's status moves from
 * pending to success or failure: with a `Settlement` configured, a stored `PENDING` transfer whose
 * time is `after` or longer ago is answered, and stored, as `SUCCESS` or `FAILED`. Only its status
 * changes (same `tranId`, same `timestamp`). The transfer endpoint settles what is due as of each
 * request's arrival, before reading its page, so what it answers is a function of the stored history
 * and the time: no timer runs. Which transfers fail is drawn from their `tranId`, so a restarted
 * service settles them the same way.
 *
 * @internal
 */
import * as Prng from "@broker-history/core/random/Prng"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Store from "../Store.js"

/**
 * How pending transfers settle: `after` their timestamp (a duration, `0` for at once), each as
 * `FAILED` with probability `failedShare` (0 to 1, default 0: all succeed), else `SUCCESS`.
 */
export interface Settlement {
  readonly after: Duration.DurationInput
  readonly failedShare?: number | undefined
}

/** A transfer settled: its id and the status it settled as. */
export interface Settled {
  readonly tranId: string
  readonly status: string
}

/**
 * What is wrong with a settlement, as a sentence naming the field and what it must be; `undefined`
 * when nothing is.
 */
export const problem = (settlement: Settlement): string | undefined => {
  const after = Duration.decodeUnknown(settlement.after)
  if (after._tag === "None" || !Duration.isFinite(after.value)) {
    return `pendingSettlement.after must be a duration ("30 seconds", 30000 ms, …), got ${
      JSON.stringify(settlement.after)
    }`
  }
  const share = settlement.failedShare ?? 0
  if (!(share >= 0 && share <= 1)) {
    return `pendingSettlement.failedShare must be a probability from 0 to 1, got ${settlement.failedShare}`
  }
  return undefined
}

/** The latest transfer time that is due at `now`: a pending transfer at or before it settles. */
export const dueBy = (settlement: Settlement, now: number): number =>
  now - Duration.toMillis(Duration.decode(settlement.after))

// FNV-1a over the id's text: a 32-bit seed per transfer.
const hashOf = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/**
 * The status a pending transfer settles as: `FAILED` for a `failedShare` of the ids, drawn from the
 * id alone (the same id always settles the same way), else `SUCCESS`.
 */
export const settledStatus = (tranId: string, failedShare: number = 0): "SUCCESS" | "FAILED" =>
  Prng.mulberry32(hashOf(tranId))() < failedShare ? "FAILED" : "SUCCESS"

/**
 * Settles, in the store, every pending transfer due at `now`, and returns them as settled (oldest
 * first): what the transfer endpoint does before reading a page.
 */
export const settleDue = (
  store: Store.Service,
  settlement: Settlement,
  now: number
): Effect.Effect<ReadonlyArray<Settled>> =>
  Effect.gen(function*() {
    const due = yield* store.pendingTransfers(dueBy(settlement, now))
    if (due.length === 0) return []
    const settled = due.map((tranId) => ({ tranId, status: settledStatus(tranId, settlement.failedShare) }))
    yield* store.settleTransfers(settled)
    return settled
  })
