/**
 * The paging of one crowded millisecond (one that holds more than a page), as decisions on what the
 * pages brought: read the next page, stop because the millisecond is complete, or stop because the
 * service does not serve all of it. At most `maxPages` pages are read, so the records held while
 * paging are bounded too.
 *
 * A page that comes back empty after a full one is either the end of a millisecond holding an exact
 * multiple of a page, or a service that stops serving pages (one that caps the page number). One page
 * of another size tells them apart: page q of size s, chosen so that it holds the last records
 * already read and the place right after them, holds exactly those records when the millisecond ends
 * there, and is empty (or holds more) when the service stopped early. A service that stops at an
 * offset that is a multiple of the page size answers that page like a complete millisecond and cannot
 * be told from one.
 *
 * @since 0.2.0
 */

/**
 * Why a millisecond was not read whole (`IncompleteHistory.reason`).
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const reasons: ReadonlyArray<Crowded.Reason> = ["PageLimit", "EmptyPage", "NothingNew"]
 * assert.strictEqual(reasons.length, 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Reason = "PageLimit" | "EmptyPage" | "NothingNew"

/**
 * Where the paging is: the full pages of `limit` read so far (page 1 included).
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const [state] = Crowded.start(100, 3)
 * assert.deepStrictEqual(state, { limit: 100, maxPages: 3, pages: 1 })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  readonly limit: number
  readonly maxPages: number
  readonly pages: number
}

/**
 * What to do next.
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const describe = (next: Crowded.Next): string =>
 *   next._tag === "Page" || next._tag === "Probe" ? `read page ${next.page} of ${next.limit}` : next._tag
 * assert.strictEqual(describe(Crowded.start(100, 3)[1]), "read page 2 of 100")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Next =
  /** Read page `page` of size `limit`. */
  | { readonly _tag: "Page"; readonly page: number; readonly limit: number }
  /** Read page `page` of size `limit`: complete when it brings exactly `expected` records, none new. */
  | { readonly _tag: "Probe"; readonly page: number; readonly limit: number; readonly expected: number }
  /** Every record of the millisecond was read. */
  | { readonly _tag: "Complete" }
  /** The service did not serve every record: `page` is the page that showed it (or would be read next). */
  | { readonly _tag: "Incomplete"; readonly reason: Reason; readonly page: number }

/**
 * After page 1 of the millisecond came back full.
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const [, next] = Crowded.start(100, 3)
 * assert.deepStrictEqual(next, { _tag: "Page", page: 2, limit: 100 })
 * assert.deepStrictEqual(Crowded.start(100, 1)[1], { _tag: "Incomplete", reason: "PageLimit", page: 2 })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const start = (limit: number, maxPages: number): readonly [State, Next] => {
  const state: State = { limit, maxPages, pages: 1 }
  return [state, nextPage(state)]
}

/**
 * After the page `Next` asked for brought `length` records, `fresh` of them not read before. A page
 * after a full one that is empty, or brings nothing new (a service that caps or ignores `page`), ends
 * the paging; a short page with something new completes it.
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const [state] = Crowded.start(100, 3)
 * // Page 2 short, with something new: the millisecond is complete.
 * assert.deepStrictEqual(Crowded.afterPage(state, 40, 40)[1], { _tag: "Complete" })
 * // Page 2 empty: a page of another size tells the end of the millisecond from a service that stopped.
 * assert.deepStrictEqual(Crowded.afterPage(state, 0, 0)[1], { _tag: "Probe", page: 2, limit: 99, expected: 1 })
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const afterPage = (state: State, length: number, fresh: number): readonly [State, Next] => {
  if (length === 0) return [state, probe(state)]
  if (fresh === 0) return [state, incomplete("NothingNew", state)]
  if (length < state.limit) return [state, { _tag: "Complete" }]
  const next = { ...state, pages: state.pages + 1 }
  return [next, nextPage(next)]
}

/**
 * After the page of another size (`Probe`) brought `length` records, `fresh` of them not read before.
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const [state] = Crowded.start(100, 3)
 * const [, probe] = Crowded.afterPage(state, 0, 0)
 * if (probe._tag !== "Probe") throw new Error("expected a probe")
 * assert.deepStrictEqual(Crowded.afterProbe(state, probe, 1, 0), { _tag: "Complete" })
 * assert.deepStrictEqual(Crowded.afterProbe(state, probe, 0, 0), { _tag: "Incomplete", reason: "EmptyPage", page: 2 })
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const afterProbe = (
  state: State,
  probed: Extract<Next, { _tag: "Probe" }>,
  length: number,
  fresh: number
): Next => length === probed.expected && fresh === 0 ? { _tag: "Complete" } : incomplete("EmptyPage", state)

const nextPage = (state: State): Next =>
  state.pages >= state.maxPages
    ? incomplete("PageLimit", state)
    : { _tag: "Page", page: state.pages + 1, limit: state.limit }

const incomplete = (reason: Reason, state: State): Next => ({ _tag: "Incomplete", reason, page: state.pages + 1 })

/**
 * The page of another size that holds the last records read and the place after them: size s (below
 * the page size, or just above it when that is 1 or 2) that does not divide the n records the full
 * pages held, page ⌊n / s⌋ + 1, holding n mod s of them when nothing follows. Without one (never for
 * the pages `maxPages` allows), the empty page is taken at its word as the end of a service that
 * stopped.
 */
const probe = (state: State): Next => {
  const n = state.pages * state.limit
  for (let size = state.limit - 1; size >= 1; size--) {
    if (n % size !== 0) return { _tag: "Probe", page: Math.floor(n / size) + 1, limit: size, expected: n % size }
  }
  for (let size = state.limit + 1; size <= state.limit + 32; size++) {
    if (n % size !== 0) return { _tag: "Probe", page: Math.floor(n / size) + 1, limit: size, expected: n % size }
  }
  return incomplete("EmptyPage", state)
}

/**
 * What a stream that goes on past an incomplete millisecond logs (`onIncomplete: "warn"`).
 *
 * @example
 * ```ts
 * import * as Crowded from "@broker-history/core/walk/Crowded"
 *
 * const text = Crowded.warning({ time: 0, received: 200, pages: 2, reason: "EmptyPage" })
 * assert.ok(text.includes("1970-01-01T00:00:00.000Z (200 records in 2 pages, then page 3 came back empty)"))
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const warning = (incomplete: {
  readonly time: number
  readonly received: number
  readonly pages: number
  readonly reason: Reason
}): string => {
  const { pages, reason, received, time } = incomplete
  const how = reason === "PageLimit"
    ? "more pages than maxPagesPerMillisecond allows"
    : reason === "EmptyPage"
    ? `page ${pages + 1} came back empty`
    : `page ${pages + 1} brought no record not already read`
  return `the service did not serve every record of the millisecond ${
    new Date(time).toISOString()
  } (${received} records in ${pages} pages, then ${how}); going on without the rest (onIncomplete "warn")`
}
