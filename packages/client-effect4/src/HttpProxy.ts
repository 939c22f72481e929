/**
 * Which HTTP proxy the Node transport sends requests through: the proxy environment variables
 * (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, which curl also reads; the default), none, or one proxy URL.
 * Pure values and checks (the rules are `@broker-history/core/config/Proxy`'s); the undici dispatcher
 * that applies them is `NodeTransport.makeDispatcher`.
 * A proxy URL may carry credentials, so it is held `Redacted` and never shown in an error.
 *
 * @since 0.2.0
 */
import * as Core from "@broker-history/core/config/Proxy"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as SettingsCheck from "./internal/line/SettingsCheck.js"

/**
 * The proxy choice: `Environment` (the proxy variables, `NO_PROXY` honoured), `None` (always direct)
 * or `Url` (every request through that proxy, `NO_PROXY` not consulted).
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import { Redacted, Result } from "effect"
 *
 * const corporate = Result.getOrThrow(HttpProxy.parse("http://user:pw@proxy.internal:3128"))
 * assert.ok(corporate._tag === "Url" && Redacted.value(corporate.url) === "http://user:pw@proxy.internal:3128/")
 * assert.strictEqual(JSON.stringify(corporate), `{"_tag":"Url","url":"<redacted>"}`)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type HttpProxy =
  | { readonly _tag: "Environment" }
  | { readonly _tag: "None" }
  | { readonly _tag: "Url"; readonly url: Redacted.Redacted<string> }

/**
 * The proxy variables, read when the transport is built: the default.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(HttpProxy.environment._tag, "Environment")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const environment: HttpProxy = { _tag: "Environment" }

/**
 * No proxy: every request goes directly to the service, whatever the environment says.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(HttpProxy.none._tag, "None")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const none: HttpProxy = { _tag: "None" }

/**
 * The variable `BrokerHistory.layerConfig` reads the proxy from.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(HttpProxy.env.proxy, "BROKER_PROXY")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const env = { proxy: "BROKER_PROXY" } as const

const invalid = (checked: Core.Invalid) => SettingsCheck.invalid(checked.problem.setting, checked.problem.message)

const redacted = (url: string | undefined) => url === undefined ? undefined : Redacted.make(url)

/**
 * Reads a proxy setting: `"environment"`, `"none"`, or a proxy URL (`http://host:port`, optionally
 * `http://user:password@host:port`). A bad value fails with a `ConfigError` naming `name` (the option
 * or variable it came from), before any request; the message never shows the credentials.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import { Result } from "effect"
 *
 * assert.strictEqual(Result.getOrThrow(HttpProxy.parse("none")), HttpProxy.none)
 * const typo = HttpProxy.parse("htp://user:secret@proxy:3128", "BROKER_PROXY")
 * assert.ok(Result.isFailure(typo))
 * assert.match(typo.failure.message, /BROKER_PROXY must be an http:\/\/ or https:\/\/ proxy URL, got htp:/)
 * assert.ok(!typo.failure.message.includes("secret"))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const parse = (
  text: string | Redacted.Redacted<string>,
  name: string = "proxy"
): Result.Result<HttpProxy, Config.ConfigError> => {
  const proxy = Core.parse(Redacted.isRedacted(text) ? Redacted.value(text) : text, name)
  switch (proxy._tag) {
    case "Invalid":
      return invalid(proxy)
    case "Url":
      return Result.succeed({ _tag: "Url", url: Redacted.make(proxy.url) })
    case "Environment":
      return Result.succeed(environment)
    case "None":
      return Result.succeed(none)
  }
}

/**
 * The proxy from `BROKER_PROXY` (`env.proxy`): a proxy URL, `"environment"` or `"none"`; unset means
 * `"environment"`. Read as a redacted value; a bad one is an `InvalidData` error naming the variable.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import { ConfigProvider, Effect } from "effect"
 *
 * const read = (env: Record<string, string>) => Effect.runSync(HttpProxy.config.parse(ConfigProvider.fromEnv({ env })))
 * assert.strictEqual(read({}), HttpProxy.environment)
 * assert.strictEqual(read({ BROKER_PROXY: "http://127.0.0.1:3128" })._tag, "Url")
 * ```
 *
 * @since 0.2.0
 * @category config
 */
export const config: Config.Config<HttpProxy> = Config.Redacted(env.proxy).pipe(
  Config.option,
  Config.mapEffect((text) =>
    Option.isNone(text) ? Effect.succeed(environment) : Effect.fromResult(parse(text.value, env.proxy))
  )
)

/**
 * The proxies the environment names, checked: `http` for `http://` services (`http_proxy`, else
 * `HTTP_PROXY`), `https` for `https://` services (`https_proxy`, else `HTTPS_PROXY`, else the `http`
 * one), and `noProxy` (`no_proxy`, else `NO_PROXY`: comma- or space-separated host names, each
 * matching itself and its subdomains, optionally `:port`; `*` matches every host). A lower-case
 * variable that is set wins over the upper-case one, even when empty. Loopback is not exempt: add
 * it to `NO_PROXY` to reach a local service directly.
 *
 * @example
 * ```ts
 * import { HttpProxy } from "@broker-history/client-effect4"
 * import { Redacted, Result } from "effect"
 *
 * const proxies = Result.getOrThrow(
 *   HttpProxy.fromEnvironment({ HTTPS_PROXY: "http://proxy.internal:3128", NO_PROXY: "localhost,127.0.0.1" })
 * )
 * assert.strictEqual(proxies.http, undefined)
 * assert.strictEqual(Redacted.value(proxies.https!), "http://proxy.internal:3128/")
 * assert.strictEqual(proxies.noProxy, "localhost,127.0.0.1")
 * assert.ok(Result.isFailure(HttpProxy.fromEnvironment({ http_proxy: "proxy.internal:3128" })))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromEnvironment = (
  variables: Readonly<Record<string, string | undefined>>
): Result.Result<
  {
    readonly http: Redacted.Redacted<string> | undefined
    readonly https: Redacted.Redacted<string> | undefined
    readonly noProxy: string
  },
  Config.ConfigError
> => {
  const proxies = Core.fromEnvironment(variables)
  return proxies._tag === "Invalid"
    ? invalid(proxies)
    : Result.succeed({ http: redacted(proxies.http), https: redacted(proxies.https), noProxy: proxies.noProxy })
}
