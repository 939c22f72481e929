/**
 * The settlement memory of follow mode: the records emitted in the trailing settlement window, by
 * key, with their time and fingerprint. Every poll reads that window again; the memory tells a
 * record seen for the first time ("new") from a record that changed ("update") and from one that did
 * not (not emitted again). Records older than the window are forgotten, so the memory holds one
 * settlement window of records, not the history.
 *
 * A memory is a value (a persistent map): `observe`, `remember` and `settle` return a new one.
 *
 * @since 0.2.0
 */
import * as PersistentMap from "../internal/PersistentMap.js"

interface Entry {
  readonly time: number
  readonly fingerprint: string
}

/**
 * The memory: the records of the settlement window by key, with their time and fingerprint.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * const memory: Settlement.Memory = Settlement.remember(Settlement.empty, "a", 10, "PENDING")
 * assert.strictEqual(Settlement.size(memory), 1)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Memory {
  readonly entries: PersistentMap.PersistentMap<Entry>
}

/**
 * The memory of nothing.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * assert.strictEqual(Settlement.size(Settlement.empty), 0)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const empty: Memory = { entries: PersistentMap.empty }

/**
 * The number of records remembered.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * assert.strictEqual(Settlement.size(Settlement.remember(Settlement.empty, "a", 10, "x")), 1)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const size = (memory: Memory): number => PersistentMap.size(memory.entries)

/**
 * Remembers a record as emitted.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * const memory = Settlement.remember(Settlement.empty, "a", 10, "PENDING")
 * assert.strictEqual(Settlement.observe(memory, { key: "a", time: 10, fingerprint: "PENDING" }, false, 0)[1], undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const remember = (memory: Memory, key: string, time: number, fingerprint: string): Memory => ({
  entries: PersistentMap.set(memory.entries, key, { time, fingerprint })
})

/**
 * What a poll makes of a record it read: "new", "update", or undefined when it was emitted before
 * as it is. A record not in the memory is "new" when it is past what was emitted (`past`) or after
 * the checkpoint the stream resumed from (`resumedAt`); one at or before that checkpoint may have
 * been emitted by the run that stored it, so it is an "update" (an upsert by key is right either way).
 * The record is remembered in all cases.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * const seen = (fingerprint: string) => ({ key: "a", time: 10, fingerprint })
 * const [m1, first] = Settlement.observe(Settlement.empty, seen("PENDING"), true, Number.NEGATIVE_INFINITY)
 * const [m2, again] = Settlement.observe(m1, seen("PENDING"), false, Number.NEGATIVE_INFINITY)
 * const [, changed] = Settlement.observe(m2, seen("SUCCESS"), false, Number.NEGATIVE_INFINITY)
 * assert.deepStrictEqual([first, again, changed], ["new", undefined, "update"])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const observe = (
  memory: Memory,
  record: { readonly key: string; readonly time: number; readonly fingerprint: string },
  past: boolean,
  resumedAt: number
): readonly [Memory, "new" | "update" | undefined] => {
  const before = PersistentMap.get(memory.entries, record.key)
  const next = remember(memory, record.key, record.time, record.fingerprint)
  if (before === undefined) return [next, past || record.time > resumedAt ? "new" : "update"]
  return [next, before.fingerprint === record.fingerprint ? undefined : "update"]
}

/**
 * Forgets the records at or before `horizon`: they are out of the settlement window.
 *
 * @example
 * ```ts
 * import * as Settlement from "@broker-history/core/walk/Settlement"
 *
 * const memory = Settlement.remember(Settlement.remember(Settlement.empty, "a", 10, "x"), "b", 20, "y")
 * assert.strictEqual(Settlement.size(Settlement.settle(memory, 10)), 1)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const settle = (memory: Memory, horizon: number): Memory => ({
  entries: PersistentMap.filter(memory.entries, (entry) => entry.time > horizon)
})
