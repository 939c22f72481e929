/**
 * The boundary of a full-history walk: the latest millisecond emitted and the ids emitted at it. It is
 * all the dedup state the walk keeps (windows are disjoint and emitted in order, so only the last
 * millisecond can be read again: by a resumed run, a follow poll or a crowded millisecond), and it is
 * the checkpoint a change carries.
 *
 * A boundary is a value; its `ids` are never changed in place (a tie makes a new array), so the
 * checkpoints handed out share them safely.
 *
 * @since 0.2.0
 */
import type { Checkpoint } from "./Checkpoint.js"

/**
 * The boundary: the latest millisecond emitted and the ids emitted at it (a `Checkpoint`).
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 *
 * const boundary: Boundary.Boundary = { time: 1735689600000, ids: ["42"] }
 * assert.strictEqual(Boundary.isPast(boundary, 1735689600000, "43"), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Boundary = Checkpoint

/**
 * Where a walk over [since, …] starts: just before `since`, or at a checkpoint it resumes from (the ids
 * of a checkpoint older than `since` do not matter: nothing before `since` is read).
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 *
 * assert.deepStrictEqual(Boundary.start(10, undefined), { time: 10, ids: [] })
 * assert.deepStrictEqual(Boundary.start(10, { time: 20, ids: ["a", "a"] }), { time: 20, ids: ["a"] })
 * assert.deepStrictEqual(Boundary.start(30, { time: 20, ids: ["a"] }), { time: 30, ids: [] })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const start = (since: number, resume: Checkpoint | undefined): Boundary => ({
  time: resume === undefined ? since : Math.max(since, resume.time),
  ids: resume !== undefined && resume.time >= since ? [...new Set(resume.ids)] : []
})

/**
 * Whether a record at `time` with key `key` was not emitted yet (it is past the boundary).
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 *
 * const boundary = { time: 5, ids: ["a"] }
 * assert.strictEqual(Boundary.isPast(boundary, 5, "a"), false)
 * assert.strictEqual(Boundary.isPast(boundary, 5, "b"), true)
 * assert.strictEqual(Boundary.isPast(boundary, 4, "c"), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const isPast = (boundary: Boundary, time: number, key: string): boolean =>
  time > boundary.time || (time === boundary.time && !has(boundary.ids, key))

/**
 * The boundary after emitting a record that is past it.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 *
 * assert.deepStrictEqual(Boundary.advance({ time: 5, ids: ["a"] }, 5, "b"), { time: 5, ids: ["a", "b"] })
 * assert.deepStrictEqual(Boundary.advance({ time: 5, ids: ["a"] }, 6, "c"), { time: 6, ids: ["c"] })
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const advance = (boundary: Boundary, time: number, key: string): Boundary =>
  time > boundary.time ? { time, ids: [key] } : { time, ids: [...boundary.ids, key] }

/**
 * The records of an ascending list (each once) that are past the boundary: the list itself when all
 * are (the usual window, which starts after the last one emitted).
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 * }
 * const time = (r: R) => r.t
 * const key = (r: R) => r.id
 *
 * const page: ReadonlyArray<R> = [{ t: 5, id: "a" }, { t: 5, id: "b" }, { t: 6, id: "c" }]
 * assert.deepStrictEqual(Boundary.fresh({ time: 5, ids: ["a"] }, page, time, key).map(key), ["b", "c"])
 * assert.strictEqual(Boundary.fresh({ time: 4, ids: [] }, page, time, key), page)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const fresh = <A>(
  boundary: Boundary,
  inOrder: ReadonlyArray<A>,
  time: (record: A) => number,
  key: (record: A) => string
): ReadonlyArray<A> => {
  if (inOrder.length === 0 || time(inOrder[0]!) > boundary.time) return inOrder
  const out: Array<A> = []
  for (let i = 0; i < inOrder.length; i++) {
    const record = inOrder[i]!
    const t = time(record)
    if (t > boundary.time) {
      for (let j = i; j < inOrder.length; j++) out.push(inOrder[j]!)
      break
    }
    if (t === boundary.time && !has(boundary.ids, key(record))) out.push(record)
  }
  return out
}

/**
 * The boundary after emitting `emitted` (ascending, all past the boundary) at once.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 * }
 * const time = (r: R) => r.t
 * const key = (r: R) => r.id
 *
 * const emitted: ReadonlyArray<R> = [{ t: 5, id: "b" }, { t: 6, id: "c" }, { t: 6, id: "d" }]
 * assert.deepStrictEqual(Boundary.after({ time: 5, ids: ["a"] }, emitted, time, key), { time: 6, ids: ["c", "d"] })
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const after = <A>(
  boundary: Boundary,
  emitted: ReadonlyArray<A>,
  time: (record: A) => number,
  key: (record: A) => string
): Boundary => {
  if (emitted.length === 0) return boundary
  const last = time(emitted[emitted.length - 1]!)
  let first = emitted.length - 1
  while (first > 0 && time(emitted[first - 1]!) === last) first--
  const keys: Array<string> = []
  for (let i = first; i < emitted.length; i++) keys.push(key(emitted[i]!))
  return { time: last, ids: last === boundary.time ? [...boundary.ids, ...keys] : keys }
}

// Most milliseconds hold one record: a short list is searched; a long one gets a set, made once per
// list (a list is never changed, so the set stays right for it).
const sets = new WeakMap<ReadonlyArray<string>, ReadonlySet<string>>()

const has = (ids: ReadonlyArray<string>, key: string): boolean => {
  if (ids.length <= 16) return ids.includes(key)
  let set = sets.get(ids)
  if (set === undefined) {
    set = new Set(ids)
    sets.set(ids, set)
  }
  return set.has(key)
}
