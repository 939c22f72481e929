/**
 * The broker's sub-account list (docs/wire-contract.md, "The sub-account list"): one page call,
 * validated and checked like the history page calls, and the stream of the whole list, read in the
 * largest pages the service allows until the first short page, each sub-account once, within
 * `maxSubAccounts` names (docs/streams.md, "The sub-account list"). The answer check and the reader
 * of the list are `@broker-history/core/query/SubAccountList`; this is the Effect shell around them.
 *
 * @internal
 */
import * as Core from "@broker-history/core/query/SubAccountList"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { BrokerError, RequestContext } from "../../BrokerError.js"
import { SubAccountListTooLong } from "../../BrokerError.js"
import type { SubAccountOptions } from "../../StreamOptions.js"
import type { SubAccount } from "../line/Domain.js"
import { Endpoint, SubAccountListQuery } from "../line/Domain.js"
import * as Effects from "../line/Effects.js"
import * as Results from "../line/Results.js"
import * as StreamQuery from "../line/StreamQuery.js"
import * as Streams from "../line/Streams.js"
import * as OptionRules from "./OptionRules.js"
import * as QueryCheck from "./QueryCheck.js"

/** One request of a page of the list through the layer's pipeline, the query already valid. */
export type Fetch = (
  query: SubAccountListQuery.SubAccountListQuery
) => Effect.Effect<ReadonlyArray<SubAccount.SubAccount>, BrokerError>

const endpoint = Endpoint.subAccountList.name

/** The page size of the stream: the largest the service allows. */
export const streamLimit = Endpoint.subAccountList.maxLimit

/** One page: one request, its answer checked against the query (core's `outside`). */
const checked = (fetch: Fetch, query: SubAccountListQuery.SubAccountListQuery) =>
  Effect.flatMap(fetch(query), (records) => {
    const found = Core.outside(records, {
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
    Results.match(SubAccountListQuery.validate(query), {
      onFailure: (violation) => Effect.fail(OptionRules.ofViolation(endpoint)(violation)),
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
  Stream.unwrap(Effect.map(Effects.fromResult(optionsOf(options)), ({ maxSubAccounts }) => {
    const list = Core.reader(streamLimit, maxSubAccounts)
    return Streams.paginateArrays(
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
