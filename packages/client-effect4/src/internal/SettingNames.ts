/**
 * Errors naming the settings as the layer was configured (`Settings.names`): a failure whose message
 * says what to check or raise gets the names of those settings (core's `Settings.namesFor`), so that
 * it names the option the user set and, when the settings came from the `BROKER_*` environment, the
 * variable (docs/configuration.md, "Settings").
 *
 * @internal
 */
import * as CoreSettings from "@broker-history/core/config/Settings"
import type * as BrokerError from "../BrokerError.js"
import { toError } from "./Failure.js"

/** `error` with the names of the settings its message mentions; any other error as it is. */
export const name = (names: CoreSettings.Names) => (error: BrokerError.BrokerError): BrokerError.BrokerError => {
  const named = CoreSettings.namesFor(error._tag, names)
  return named === undefined ? error : toError({ ...error, names: named })
}
