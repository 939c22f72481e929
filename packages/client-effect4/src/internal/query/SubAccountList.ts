/**
 * The broker's sub-account list (docs/wire-contract.md, "The sub-account list"): one page call,
 * validated and checked like the history page calls, and the stream of the whole list, read in the
 * largest pages the service allows until the first short page, each sub-account once, within
 * `maxSubAccounts` names (docs/streams.md, "The sub-account list"). The reader of the list is pure;
 * the Effect shell around it is the two functions at the end.
 *
 * @internal
 */
import type * as CoreQueryCheck from "@broker-history/core/query/QueryCheck"
import * as ServerText from "@broker-history/core/request/ServerText"
import type { SubAccount } from "@broker-history/domain-effect4"
import { Endpoint, SubAccountListQuery } from "@broker-history/domain-effect4"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type { BrokerError, RequestContext } from "../../BrokerError.js"
import { SubAccountListTooLong } from "../../BrokerError.js"
import type { SubAccountOptions } from "../../StreamOptions.js"
import * as QueryCheck from "./QueryCheck.js"
import * as StreamQuery from "./StreamQuery.js"

/** One request of a page of the list through the layer's pipeline, the query already valid. */
export type Fetch = (
  query: SubAccountListQuery.SubAccountListQuery
) => Effect.Effect<ReadonlyArray<SubAccount.SubAccount>, BrokerError>

const endpoint = Endpoint.subAccountList.name

/** The page size of the stream: the largest the service allows. */
export const streamLimit = Endpoint.subAccountList.maxLimit

/**
 * The first sub-account of an answer that its query did not ask for: past the `limit` records a page
 * may hold, or, when the query named one sub-account, another. `undefined` when every one is inside.
 */
export const outside = (
  records: ReadonlyArray<SubAccount.SubAccount>,
  query: { readonly limit: number; readonly subAccount: string | undefined }
): CoreQueryCheck.Outside | undefined => {
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

const quote = (text: string): string => JSON.stringify(ServerText.sanitize(text, 64))

/** What one more page of the whole list says: go on, the list ended, or stop with a bound broken. */
export type Step =
  | { readonly _tag: "Continue"; readonly fresh: ReadonlyArray<SubAccount.SubAccount> }
  | { readonly _tag: "Done"; readonly fresh: ReadonlyArray<SubAccount.SubAccount> }
  | { readonly _tag: "Stop"; readonly reason: SubAccountListTooLong["reason"] }

/**
 * The reader of one pass over the list in pages of `limit`: `read` takes the next page (at most
 * `limit` records) and gives the sub-accounts not read before, in the page's order, and whether to
 * go on. It keeps the names read (at most `maxSubAccounts`) and the page count, nothing else. A full
 * page goes on, unless it brings no new name (`NothingNew`) or it is the page
 * `⌊maxSubAccounts / limit⌋ + 1` (`PageLimit`: without repetitions that many full pages hold more
 * names than the bound); a short page ends the list.
 */
export const reader = (limit: number, maxSubAccounts: number) => {
  const seen = new Set<string>()
  const maxPages = Math.floor(maxSubAccounts / limit) + 1
  let pages = 0
  return {
    read: (records: ReadonlyArray<SubAccount.SubAccount>): Step => {
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
    /** Distinct sub-accounts read so far. */
    received: (): number => seen.size,
    /** Pages read so far. */
    pages: (): number => pages
  }
}

/** One page: one request, its answer checked against the query (`outside`). */
const checked = (fetch: Fetch, query: SubAccountListQuery.SubAccountListQuery) =>
  Effect.flatMap(fetch(query), (records) => {
    const found = outside(records, {
      limit: query.limit ?? Endpoint.subAccountList.maxLimit,
      subAccount: query.subAccount
    })
    return found === undefined
      ? Effect.succeed(records)
      : Effect.fail(QueryCheck.refusal(requestOf(query.page), records, found))
  })

const requestOf = (page: number | undefined): RequestContext => page === undefined ? { endpoint } : { endpoint, page }

/** The page call: the query validated first (nothing sent when invalid), then one checked request. */
export const page = (fetch: Fetch) =>
(
  query: SubAccountListQuery.SubAccountListQuery = {}
): Effect.Effect<ReadonlyArray<SubAccount.SubAccount>, BrokerError> =>
  Effect.suspend(() =>
    Result.match(SubAccountListQuery.validate(query), {
      onFailure: (violation) => Effect.fail(StreamQuery.ofViolation(endpoint)(violation)),
      onSuccess: (valid) => checked(fetch, valid)
    })
  )

/** The stream's options, decoded (`StreamQuery.subAccounts`); none given: the defaults. */
const optionsOf = (options: SubAccountOptions | undefined) =>
  StreamQuery.decode(StreamQuery.subAccounts, endpoint)(options === undefined ? {} : options)

/**
 * The whole list as a lazy stream: the options decoded first (`StreamQuery.subAccounts`), then page 1,
 * 2, … of `streamLimit`, each run with a reader of its own; one page in memory besides the names read.
 */
export const stream = (fetch: Fetch) =>
(
  options?: SubAccountOptions
): Stream.Stream<SubAccount.SubAccount, BrokerError> =>
  Stream.unwrap(Effect.map(Effect.fromResult(optionsOf(options)), ({ maxSubAccounts }) => {
    const list = reader(streamLimit, maxSubAccounts)
    return Stream.paginate(
      1,
      (n: number) =>
        Effect.flatMap(checked(fetch, { page: n, limit: streamLimit }), (records) => {
          const step = list.read(records)
          switch (step._tag) {
            case "Continue":
              return Effect.succeed([step.fresh, Option.some(n + 1)] as const)
            case "Done":
              return Effect.succeed([step.fresh, Option.none<number>()] as const)
            case "Stop":
              return Effect.fail(
                new SubAccountListTooLong({
                  request: requestOf(n),
                  maxSubAccounts,
                  received: list.received(),
                  pages: list.pages(),
                  reason: step.reason
                })
              )
          }
        })
    )
  }))
