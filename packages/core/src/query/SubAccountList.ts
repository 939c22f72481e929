/**
 * The reading of the broker's sub-account list (docs/wire-contract.md, "The sub-account list";
 * docs/streams.md, "The sub-account list"): whether a page holds only what its query asked for
 * (`outside`), and the reader of the whole list in pages, each sub-account once, within a bound of
 * names (`reader`). Each line's client runs its page calls and its stream on them.
 *
 * @since 0.2.0
 */
import type * as SubAccount from "../record/SubAccount.js"
import * as ServerText from "../request/ServerText.js"
import type * as QueryCheck from "./QueryCheck.js"

/**
 * Why the list stopped before its end: more distinct names than the bound (`TooMany`), a full page
 * of names all read already (`NothingNew`: a service that ignores `page`), or more full pages than
 * the bound's names fill (`PageLimit`). Each line's `SubAccountListTooLong` carries it as `reason`.
 *
 * @example
 * ```ts
 * import type * as SubAccountList from "@broker-history/core/query/SubAccountList"
 *
 * const reasons: ReadonlyArray<SubAccountList.StopReason> = ["TooMany", "NothingNew", "PageLimit"]
 * assert.strictEqual(reasons.length, 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type StopReason = "TooMany" | "NothingNew" | "PageLimit"

/**
 * What one more page of the whole list says: go on (`Continue`), the list ended (`Done`), both with
 * the sub-accounts not read before; or stop with a bound broken (`Stop`).
 *
 * @example
 * ```ts
 * import * as SubAccountList from "@broker-history/core/query/SubAccountList"
 *
 * const step: SubAccountList.Step = SubAccountList.reader(2, 10).read([])
 * assert.deepStrictEqual(step, { _tag: "Done", fresh: [] })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Step =
  | { readonly _tag: "Continue"; readonly fresh: ReadonlyArray<SubAccount.SubAccount> }
  | { readonly _tag: "Done"; readonly fresh: ReadonlyArray<SubAccount.SubAccount> }
  | { readonly _tag: "Stop"; readonly reason: StopReason }

/**
 * The reader of one pass over the list (see `reader`).
 *
 * @example
 * ```ts
 * import * as SubAccountList from "@broker-history/core/query/SubAccountList"
 *
 * const list: SubAccountList.Reader = SubAccountList.reader(1, 10)
 * list.read([{ subAccount: "a", note: "", timestamp: undefined }])
 * assert.strictEqual(list.received(), 1)
 * assert.strictEqual(list.pages(), 1)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Reader {
  /** The next page (at most the reader's `limit` records): what it brings, and whether to go on. */
  readonly read: (records: ReadonlyArray<SubAccount.SubAccount>) => Step
  /** Distinct sub-accounts read so far. */
  readonly received: () => number
  /** Pages read so far. */
  readonly pages: () => number
}

/** Most characters of a name quoted in a description. */
const nameLength = 64

const quote = (text: string): string => JSON.stringify(ServerText.sanitize(text, nameLength))

/**
 * The first sub-account of an answer that its query did not ask for: past the `limit` records a page
 * may hold, or, when the query named one sub-account, another. `undefined` when every one is inside.
 *
 * @example
 * ```ts
 * import * as SubAccountList from "@broker-history/core/query/SubAccountList"
 *
 * const records = [{ subAccount: "a", note: "", timestamp: undefined }, { subAccount: "b", note: "", timestamp: undefined }]
 * assert.strictEqual(SubAccountList.outside(records, { limit: 10, subAccount: undefined }), undefined)
 * assert.deepStrictEqual(SubAccountList.outside(records, { limit: 10, subAccount: "a" }), {
 *   index: 1,
 *   description: `it lists sub-account "b" where the query asked for "a" alone`
 * })
 * assert.strictEqual(SubAccountList.outside(records, { limit: 1, subAccount: undefined })?.index, 1)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const outside = (
  records: ReadonlyArray<SubAccount.SubAccount>,
  query: { readonly limit: number; readonly subAccount: string | undefined }
): QueryCheck.Outside | undefined => {
  if (records.length > query.limit) {
    return {
      index: query.limit,
      description:
        `the answer holds ${records.length} sub-accounts, more than the ${query.limit} a page of this query may hold`
    }
  }
  if (query.subAccount === undefined) return undefined
  const index = records.findIndex((r) => r.subAccount !== query.subAccount)
  return index === -1 ? undefined : {
    index,
    description: `it lists sub-account ${quote(records[index]!.subAccount)} where the query asked for ${
      quote(query.subAccount)
    } alone`
  }
}

/**
 * The reader of one pass over the list in pages of `limit`: `read` takes the next page (at most
 * `limit` records) and gives the sub-accounts not read before, in the page's order, and whether to
 * go on. It keeps the names read (at most `maxSubAccounts`) and the page count, nothing else. A full
 * page goes on, unless it brings no new name (`NothingNew`) or it is the page
 * `⌊maxSubAccounts / limit⌋ + 1` (`PageLimit`: without repetitions that many full pages hold more
 * names than the bound); a short page ends the list.
 *
 * @example
 * ```ts
 * import * as SubAccountList from "@broker-history/core/query/SubAccountList"
 *
 * const named = (...names: Array<string>) => names.map((subAccount) => ({ subAccount, note: "", timestamp: undefined }))
 * const list = SubAccountList.reader(2, 4)
 * assert.deepStrictEqual(list.read(named("a", "b")), { _tag: "Continue", fresh: named("a", "b") })
 * assert.deepStrictEqual(list.read(named("b", "c")), { _tag: "Continue", fresh: named("c") })
 * assert.deepStrictEqual(list.read(named("d", "e")), { _tag: "Stop", reason: "TooMany" })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const reader = (limit: number, maxSubAccounts: number): Reader => {
  const seen = new Set<string>()
  const maxPages = Math.floor(maxSubAccounts / limit) + 1
  let pages = 0
  return {
    read: (records) => {
      pages++
      const fresh: Array<SubAccount.SubAccount> = []
      for (const record of records) {
        if (seen.has(record.subAccount)) continue
        if (seen.size >= maxSubAccounts) return { _tag: "Stop", reason: "TooMany" }
        seen.add(record.subAccount)
        fresh.push(record)
      }
      if (records.length < limit) return { _tag: "Done", fresh }
      if (fresh.length === 0) return { _tag: "Stop", reason: "NothingNew" }
      if (pages >= maxPages) return { _tag: "Stop", reason: "PageLimit" }
      return { _tag: "Continue", fresh }
    },
    received: () => seen.size,
    pages: () => pages
  }
}
