/**
 * A setting refused, as Effect 3 says it: the `ConfigError` of one of core's problems
 * (`@broker-history/core/config/Settings` holds the settings' names, defaults and rules).
 *
 * @internal
 */
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"

/** The `ConfigError` of a broken rule: the setting as messages name it, and the message. */
export const invalid = (setting: string, message: string) => Either.left(ConfigError.InvalidData([setting], message))
