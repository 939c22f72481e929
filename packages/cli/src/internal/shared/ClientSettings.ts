/**
 * The client's settings as the variables a command reads (see `ClientOptions`): flag values over the
 * environment, every duration in the command line's one syntax, and the OTLP endpoint checked. Pure:
 * values in, variables or the error that names the variable out.
 *
 * @internal
 */
import { BrokerConfig } from "@broker-history/client"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as TimeText from "./TimeText.js"

/** The client's duration variables: read with the command line's one duration syntax (`TimeText`). */
export const durationVariables: ReadonlySet<string> = new Set([
  BrokerConfig.env.requestTimeout,
  BrokerConfig.env.rateLimitInterval,
  BrokerConfig.env.rateLimitMargin,
  BrokerConfig.env.retryBaseDelay,
  BrokerConfig.env.retryMaxDelay,
  BrokerConfig.env.maxRetryAfter,
  BrokerConfig.env.followMaxDelay,
  BrokerConfig.env.transferMaxWindow,
  BrokerConfig.env.depositMaxWindow
])

/**
 * The variables of a command: `given` (flag values by variable name; `undefined`, not given) over
 * `env` (an empty value is unset), each duration written back as Effect duration text. A duration
 * that does not read is an `InvalidData` error naming its variable.
 */
export const variables = (
  given: Iterable<readonly [variable: string, value: string | undefined]>,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<Map<string, string>, ConfigError.ConfigError> => {
  const map = new Map<string, string>()
  for (const [name, value] of given) {
    if (value !== undefined) map.set(name, value)
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== "" && !map.has(name)) map.set(name, value)
  }
  for (const name of durationVariables) {
    const text = map.get(name)
    if (text === undefined) continue
    const duration = TimeText.duration(text)
    if (Either.isLeft(duration)) return Either.left(ConfigError.InvalidData([name], duration.left))
    map.set(name, TimeText.durationText(duration.right))
  }
  return Either.right(map)
}

/**
 * Reads an OTLP/HTTP collector's base URL: an `http://` or `https://` URL, without its trailing
 * slashes; anything else is the message saying what is expected.
 */
export const otlpEndpoint = (text: string): Either.Either<string, string> => {
  const url = URL.canParse(text) ? new URL(text) : undefined
  return url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")
    ? Either.left(
      `must be an http:// or https:// URL such as http://127.0.0.1:4318 (from --otlp-endpoint or the variable), not ${
        JSON.stringify(text)
      }`
    )
    : Either.right(text.replace(/\/+$/, ""))
}
