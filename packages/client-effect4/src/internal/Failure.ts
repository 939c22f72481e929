/**
 * Core's failures (`@broker-history/core/error/BrokerError`, plain data) as this line's tagged error
 * classes, which carry the same fields and take their messages from core.
 *
 * @internal
 */
import * as Core from "@broker-history/core/error/BrokerError"
import * as BrokerError from "../BrokerError.js"

/** Core's failure as the error class of the name of its tag, of the same fields. */
export const toError = <F extends Core.BrokerError>(failure: F): Extract<BrokerError.BrokerError, Pick<F, "_tag">> =>
  new (BrokerError[failure._tag] as unknown as new(fields: object) => never)(Core.fieldsOf(failure))
