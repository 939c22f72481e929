/**
 * Errors naming the settings as the layer was configured (`Settings.names`): a failure whose message
 * says what to check or raise gets the names of those settings, so that it names the option the user
 * set and, when the settings came from the `BROKER_*` environment, the variable (docs/configuration.md,
 * "Settings").
 *
 * @internal
 */
import * as BrokerError from "../BrokerError.js"
import type * as SettingsCheck from "./SettingsCheck.js"

const pick = (names: SettingsCheck.Names, settings: ReadonlyArray<SettingsCheck.Setting>) =>
  Object.fromEntries(settings.map((setting) => [setting, names[setting]]))

/** `error` with the names of the settings its message mentions; any other error as it is. */
export const name = (names: SettingsCheck.Names) => (error: BrokerError.BrokerError): BrokerError.BrokerError => {
  switch (error._tag) {
    case "AuthenticationError":
      return new BrokerError.AuthenticationError({ ...error, names: pick(names, ["apiKey", "secretKey"]) })
    case "TimestampRejected":
      return new BrokerError.TimestampRejected({ ...error, names: pick(names, ["recvWindow"]) })
    case "RateLimited":
      return new BrokerError.RateLimited({ ...error, names: pick(names, ["maxRetryAfter", "rateLimit"]) })
    case "TransportError":
      return new BrokerError.TransportError({ ...error, names: pick(names, ["baseUrl", "requestTimeout"]) })
    case "ResponseDecodeError":
      return new BrokerError.ResponseDecodeError({ ...error, names: pick(names, ["baseUrl", "maxResponseBytes"]) })
    case "IncompleteHistory":
      return new BrokerError.IncompleteHistory({
        ...error,
        names: pick(names, ["maxPagesPerMillisecond", "onIncomplete"])
      })
    default:
      return error
  }
}
