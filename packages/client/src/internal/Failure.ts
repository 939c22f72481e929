/**
 * Core's failures (`@broker-history/core/error/BrokerError`, plain data) as this line's tagged error
 * classes, which carry the same fields and take their messages from core.
 *
 * @internal
 */
import type * as Core from "@broker-history/core/error/BrokerError"
import * as BrokerError from "../BrokerError.js"

/** Core's failure as the error class of the name of its tag, of the same fields. */
export const toError = <F extends Core.BrokerError>(
  failure: F
): Extract<BrokerError.BrokerError, { readonly _tag: F["_tag"] }> => {
  const { _tag, ...fields } = failure
  const ErrorClass = BrokerError[_tag as F["_tag"]] as unknown as new(fields: object) => BrokerError.BrokerError
  return new ErrorClass(fields) as Extract<BrokerError.BrokerError, { readonly _tag: F["_tag"] }>
}
