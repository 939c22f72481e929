/**
 * Pending transfers that settle later, as on the exchange, where a transfer's status moves from
 * pending to success or failure: with a `Settlement` configured, a stored `PENDING` transfer whose
 * time is `after` or longer ago is answered, and stored, as `SUCCESS` or `FAILED`. Only its status
 * changes (same `tranId`, same `timestamp`). The transfer endpoint settles what is due as of each
 * request's arrival, before reading its page, so what it answers is a function of the stored history
 * and the time: no timer runs. Which transfers fail is drawn from their `tranId`, so a restarted
 * service settles them the same way.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Prng from "./Prng.js"
import type * as Store from "./Store.js"

/**
 * How pending transfers settle: `after` their timestamp (a duration, `0` for at once), each as
 * `FAILED` with probability `failedShare` (0 to 1, default 0: all succeed), else `SUCCESS`.
 *
 * @example
 * ```ts
 * import { PendingSettlement } from "@broker-history/server"
 *
 * const settlement: PendingSettlement.Settlement = { after: "5 seconds", failedShare: 0.1 }
 * assert.strictEqual(PendingSettlement.dueBy(settlement, 1_700_000_005_000), 1_700_000_000_000)
 * assert.strictEqual(PendingSettlement.problem(settlement), undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Settlement {
  readonly after: Duration.DurationInput
  readonly failedShare?: number | undefined
}

/**
 * A transfer settled: its id and the status it settled as.
 *
 * @example
 * ```ts
 * import type { PendingSettlement } from "@broker-history/server"
 *
 * const settled: PendingSettlement.Settled = { tranId: "10000000001", status: "SUCCESS" }
 * assert.strictEqual(settled.status, "SUCCESS")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Settled {
  readonly tranId: string
  readonly status: string
}

/**
 * What is wrong with a settlement, as a sentence naming the field and what it must be; `undefined`
 * when nothing is.
 *
 * @example
 * ```ts
 * import { PendingSettlement } from "@broker-history/server"
 *
 * assert.strictEqual(PendingSettlement.problem({ after: "1 minute" }), undefined)
 * assert.strictEqual(
 *   PendingSettlement.problem({ after: "1 minute", failedShare: 2 }),
 *   "pendingSettlement.failedShare must be a probability from 0 to 1, got 2"
 * )
 * assert.strictEqual(
 *   PendingSettlement.problem({ after: "soon" as never }),
 *   `pendingSettlement.after must be a duration ("30 seconds", 30000 ms, …), got "soon"`
 * )
 * ```
 *
 * @since 0.2.0
 * @category validation
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

/**
 * The latest transfer time that is due at `now`: a pending transfer at or before it settles.
 *
 * @example
 * ```ts
 * import { PendingSettlement } from "@broker-history/server"
 *
 * assert.strictEqual(PendingSettlement.dueBy({ after: "1 minute" }, 120_000), 60_000)
 * assert.strictEqual(PendingSettlement.dueBy({ after: 0 }, 120_000), 120_000)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
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
 *
 * @example
 * ```ts
 * import { PendingSettlement } from "@broker-history/server"
 *
 * assert.strictEqual(PendingSettlement.settledStatus("10000000001", 0), "SUCCESS")
 * assert.strictEqual(PendingSettlement.settledStatus("10000000001", 1), "FAILED")
 * const ids = Array.from({ length: 1000 }, (_, i) => String(10_000_000_000 + i))
 * const failed = ids.filter((id) => PendingSettlement.settledStatus(id, 0.2) === "FAILED").length
 * assert.ok(failed > 150 && failed < 250)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const settledStatus = (tranId: string, failedShare: number = 0): "SUCCESS" | "FAILED" =>
  Prng.mulberry32(hashOf(tranId))() < failedShare ? "FAILED" : "SUCCESS"

/**
 * Settles, in the store, every pending transfer due at `now`, and returns them as settled (oldest
 * first): what the transfer endpoint does before reading a page.
 *
 * @example
 * ```ts
 * import { PendingSettlement, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const pending = (tranId: string, timestamp: number): Store.TransferRow => ({
 *   tranId, clientTranId: null, fromAccount: null, toAccount: "sub001@broker.test", asset: "USDT", amount: "1.00000000",
 *   fromAccountType: "SPOT", toAccountType: "FUTURES", fromSymbol: "", toSymbol: "", status: "PENDING", timestamp
 * })
 * const statuses = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertTransfers([pending("1", 1_000), pending("2", 50_000)])
 *     const settled = yield* PendingSettlement.settleDue(store, { after: "1 minute" }, 100_000)
 *     assert.deepStrictEqual(settled, [{ tranId: "1", status: "SUCCESS" }])
 *     return (yield* store.allTransfers()).map((t) => t.status)
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(statuses, ["SUCCESS", "PENDING"]) // the second is not due until 110000
 * ```
 *
 * @since 0.2.0
 * @category execution
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
