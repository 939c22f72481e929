/**
 * The error of an answer holding a record its query did not ask for (`firstOutside` of
 * `@broker-history/core/query/QueryCheck` finds it): a `ResponseDecodeError` with reason
 * `OutsideQuery`.
 *
 * @internal
 */
import * as QueryCheck from "@broker-history/core/query/QueryCheck"
import type { RequestContext } from "../../BrokerError.js"
import { ResponseDecodeError } from "../../BrokerError.js"

/** A filter every record of an answer must match (public as `FullHistory.Filter`). */
export type Filter<A> = QueryCheck.Filter<A>

/** What an answer is checked against (see core). */
export type Query<A> = QueryCheck.Query<A>

/** The first record of an answer that its query did not ask for, and what it breaks. */
export type Outside = QueryCheck.Outside

/** What a page call's query may hold of a window and a page. */
export type PageQuery = QueryCheck.PageQuery

/** What a page call's answer is checked against, and the request its error names (see core). */
export const ofPage = QueryCheck.ofPage

/** The error of `records` when one is outside `query` (see `refusal`), or undefined when all are inside. */
export const check = <A>(
  records: ReadonlyArray<A>,
  query: Query<A>,
  request: RequestContext
): ResponseDecodeError | undefined => {
  const outside = QueryCheck.firstOutside(records, query)
  return outside === undefined ? undefined : refusal(request, records, outside)
}

/**
 * The error of an answer with a record outside its query (`ResponseDecodeError`, reason
 * `OutsideQuery`): the request, what the record breaks, and the record itself as the excerpt. The
 * answer was a success (2xx; the status is not kept past decoding, so 200 is reported) to the
 * request's last attempt.
 */
export const refusal = <A>(
  request: RequestContext,
  records: ReadonlyArray<A>,
  outside: Outside
): ResponseDecodeError =>
  new ResponseDecodeError({
    request,
    status: 200,
    reason: "OutsideQuery",
    description: outside.description,
    excerpt: QueryCheck.excerpt(records, outside),
    attempts: 1
  })
