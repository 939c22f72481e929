/**
 * The Effect shell of core's `QueryCheck` (whether an answer holds only what its query asked for):
 * the first record outside a query becomes the `ResponseDecodeError` (`OutsideQuery`) a page call or
 * a walk fails with.
 *
 * @internal
 */
import * as QueryCheck from "@broker-history/core/query/QueryCheck"
import type { RequestContext } from "../../BrokerError.js"
import { ResponseDecodeError } from "../../BrokerError.js"

/**
 * The error of an answer with a record outside its query (`ResponseDecodeError`, reason
 * `OutsideQuery`): the request, what the record breaks, and the record itself as the excerpt. The
 * answer was a success (2xx; the status is not kept past decoding, so 200 is reported) to the
 * request's last attempt.
 */
export const refusal = <A>(
  request: RequestContext,
  records: ReadonlyArray<A>,
  outside: QueryCheck.Outside
): ResponseDecodeError =>
  new ResponseDecodeError({
    request,
    status: 200,
    reason: "OutsideQuery",
    description: outside.description,
    excerpt: QueryCheck.excerpt(records, outside),
    attempts: 1
  })

/** The error of `records` when one is outside `query` (see `refusal`), or undefined when all are inside. */
export const check = <A>(
  records: ReadonlyArray<A>,
  query: QueryCheck.Query<A>,
  request: RequestContext
): ResponseDecodeError | undefined => {
  const outside = QueryCheck.firstOutside(records, query)
  return outside === undefined ? undefined : refusal(request, records, outside)
}
