/**
 * A setting refused, as Effect 4 says it: the `ConfigError` of one of core's problems
 * (`@broker-history/core/config/Settings` holds the settings' names, defaults and rules), and a
 * duration input read as Effect 4 reads it.
 *
 * @internal
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

/**
 * A setting refused: a `ConfigError` whose message is `message`, which names the setting (one line;
 * the schema issue carries no path, since the message names the option and its variable itself).
 */
export const configError = (message: string): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

/** The `ConfigError` of a broken rule: the setting as messages name it, and the message. */
export const invalid = (_setting: string, message: string): Result.Result<never, Config.ConfigError> =>
  Result.fail(configError(message))

/** A duration input as a duration: `undefined` when it is not one (Effect 4 reads negatives as negative). */
export const durationOf = (input: unknown): Duration.Duration | undefined =>
  Option.getOrUndefined(Duration.fromInput(input as Duration.Input))
