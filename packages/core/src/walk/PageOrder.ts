/**
 * The records of one complete window in ascending order, each once. The service may send a page in
 * any order (docs/wire-contract.md, "Ordering, windows and limits"; the reference service sends newest
 * first): a page in either time order is only checked and, newest first, reversed; anything else is
 * sorted. A record sent twice (same time, same key: adjacent once in order) is kept once. Every
 * record is inside its window: the walk refused any answer with a record outside (`QueryCheck`).
 *
 * @since 0.2.0
 */

/**
 * How records are ordered and identified.
 *
 * @example
 * ```ts
 * import * as PageOrder from "@broker-history/core/walk/PageOrder"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 * }
 * const order: PageOrder.Order<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
 * }
 *
 * assert.ok(order.compare({ t: 1, id: "b" }, { t: 2, id: "a" }) < 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Order<A> {
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  /** Ascending: by `time` first, then a tie-break; 0 only for the same record. */
  readonly compare: (a: A, b: A) => number
}

/**
 * The records of `page`, ascending, each once. When the page needs no change it is returned as it is.
 *
 * @example
 * ```ts
 * import * as PageOrder from "@broker-history/core/walk/PageOrder"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 * }
 * const order: PageOrder.Order<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
 * }
 *
 * const newestFirst = [{ t: 3, id: "c" }, { t: 2, id: "b" }, { t: 2, id: "b" }, { t: 1, id: "a" }]
 * assert.deepStrictEqual(PageOrder.ascending(order, newestFirst).map((r) => r.id), ["a", "b", "c"])
 * const inOrder = [{ t: 1, id: "a" }, { t: 2, id: "b" }]
 * assert.strictEqual(PageOrder.ascending(order, inOrder), inOrder)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const ascending = <A>(order: Order<A>, page: ReadonlyArray<A>): ReadonlyArray<A> => {
  const { compare, time } = order
  let up = true
  let down = true
  let equal = false
  let before = Number.NaN
  for (let i = 0; i < page.length && (up || down); i++) {
    const t = time(page[i]!)
    if (i > 0) {
      const o = before !== t ? (before < t ? -1 : 1) : compare(page[i - 1]!, page[i]!)
      if (o > 0) up = false
      else if (o < 0) down = false
      else equal = true
    }
    before = t
  }
  // In either order without two records comparing equal, no record can be there twice.
  if (up) return equal ? distinct(order, page) : page
  if (down) return equal ? distinct(order, reversed(page)) : reversed(page)
  return distinct(order, page.slice().sort(compare))
}

const reversed = <A>(page: ReadonlyArray<A>): Array<A> => {
  const n = page.length
  const out = new Array<A>(n)
  for (let i = 0; i < n; i++) out[i] = page[n - 1 - i]!
  return out
}

/**
 * An ascending list without repeats: a record with the time and key of the one before it is dropped.
 *
 * @example
 * ```ts
 * import * as PageOrder from "@broker-history/core/walk/PageOrder"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 * }
 * const order: PageOrder.Order<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
 * }
 *
 * const twice = [{ t: 1, id: "a" }, { t: 1, id: "a" }, { t: 1, id: "b" }]
 * assert.deepStrictEqual(PageOrder.distinct(order, twice).map((r) => r.id), ["a", "b"])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const distinct = <A>(order: Order<A>, inOrder: ReadonlyArray<A>): ReadonlyArray<A> => {
  const { key, time } = order
  const out: Array<A> = []
  let previousKey: string | undefined
  let previousTime = Number.NaN
  for (const record of inOrder) {
    const t = time(record)
    const k = key(record)
    if (t === previousTime && k === previousKey) continue
    previousKey = k
    previousTime = t
    out.push(record)
  }
  return out
}
