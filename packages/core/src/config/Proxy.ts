/**
 * The rules of a proxy setting (docs/configuration.md): a proxy URL, `"environment"` or `"none"`,
 * and the proxies the environment's variables name (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, which
 * curl also reads). A proxy URL may carry credentials: a problem never shows it, and each line's
 * `HttpProxy` holds it `Redacted` as soon as it is checked.
 *
 * @since 0.2.0
 */
import type * as Settings from "./Settings.js"

/**
 * A rule broken, and by which setting (see `Settings.Problem`).
 *
 * @example
 * ```ts
 * import * as Proxy from "@broker-history/core/config/Proxy"
 *
 * const invalid = Proxy.checkUrl("BROKER_PROXY", "proxy.internal:3128") as Proxy.Invalid
 * assert.strictEqual(invalid.problem.setting, "BROKER_PROXY")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Invalid {
  readonly _tag: "Invalid"
  readonly problem: Settings.Problem
}

/**
 * The proxy choice, its URL as text: `Environment` (the proxy variables, `NO_PROXY` honoured), `None`
 * (always direct) or `Url` (every request through that proxy).
 *
 * @example
 * ```ts
 * import * as Proxy from "@broker-history/core/config/Proxy"
 *
 * const choice: Proxy.Proxy = Proxy.parse("none") as Proxy.Proxy
 * assert.strictEqual(choice._tag, "None")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Proxy =
  | { readonly _tag: "Environment" }
  | { readonly _tag: "None" }
  | { readonly _tag: "Url"; readonly url: string }

const invalid = (setting: string, message: string): Invalid => ({ _tag: "Invalid", problem: { setting, message } })

/**
 * Checks one proxy URL: `http://` or `https://` (the scheme of the proxy itself, not of the
 * service), a host, no path, query or fragment, and a password wherever a user name is given: the URL
 * as the WHATWG parser writes it, or the problem, which names `name` and never shows the URL.
 *
 * @example
 * ```ts
 * import * as Proxy from "@broker-history/core/config/Proxy"
 *
 * assert.deepStrictEqual(Proxy.checkUrl("proxy", "http://user:pw@proxy.internal:3128"), {
 *   _tag: "Valid",
 *   url: "http://user:pw@proxy.internal:3128/"
 * })
 * const typo = Proxy.checkUrl("proxy", "htp://user:secret@proxy:3128")
 * assert.ok(typo._tag === "Invalid" && !typo.problem.message.includes("secret"))
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const checkUrl = (name: string, text: string): { readonly _tag: "Valid"; readonly url: string } | Invalid => {
  const example = "give one such as http://proxy.internal:3128"
  if (!text.includes("://")) return invalid(name, `${name} must start with http:// or https://; ${example}`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return invalid(name, `${name} is not a URL (not shown: it may hold credentials); ${example}`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return invalid(name, `${name} must be an http:// or https:// proxy URL, got ${url.protocol}//…; ${example}`)
  }
  if (url.hostname === "") return invalid(name, `${name} has no host; ${example}`)
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    return invalid(name, `${name} must be the proxy's origin only (no path, query or fragment): ${url.origin}`)
  }
  if (url.username !== "" && url.password === "") {
    return invalid(
      name,
      `${name} gives a user name without a password; write both, percent-encoded: http://user:password@host:port`
    )
  }
  return { _tag: "Valid", url: url.href }
}

/**
 * Reads a proxy setting `name`: `"environment"`, `"none"`, or a proxy URL (`checkUrl`).
 *
 * @example
 * ```ts
 * import * as Proxy from "@broker-history/core/config/Proxy"
 *
 * assert.deepStrictEqual(Proxy.parse("environment"), { _tag: "Environment" })
 * assert.deepStrictEqual(Proxy.parse(" ", "BROKER_PROXY"), {
 *   _tag: "Invalid",
 *   problem: { setting: "BROKER_PROXY", message: `BROKER_PROXY is empty; give a proxy URL, "environment" (the default) or "none"` }
 * })
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const parse = (value: string, name: string = "proxy"): Proxy | Invalid => {
  if (value === "environment") return { _tag: "Environment" }
  if (value === "none") return { _tag: "None" }
  if (value.trim() === "") {
    return invalid(name, `${name} is empty; give a proxy URL, "environment" (the default) or "none"`)
  }
  const checked = checkUrl(name, value)
  return checked._tag === "Invalid" ? checked : { _tag: "Url", url: checked.url }
}

/**
 * The proxies the environment names, checked: `http` for `http://` services (`http_proxy`, else
 * `HTTP_PROXY`), `https` for `https://` services (`https_proxy`, else `HTTPS_PROXY`, else the `http`
 * one), and `noProxy` (`no_proxy`, else `NO_PROXY`). A lower-case variable that is set wins over the
 * upper-case one, even when empty; an empty one names no proxy.
 *
 * @example
 * ```ts
 * import * as Proxy from "@broker-history/core/config/Proxy"
 *
 * assert.deepStrictEqual(Proxy.fromEnvironment({ HTTPS_PROXY: "http://proxy.internal:3128", no_proxy: "localhost" }), {
 *   _tag: "Valid",
 *   http: undefined,
 *   https: "http://proxy.internal:3128/",
 *   noProxy: "localhost"
 * })
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromEnvironment = (
  variables: Readonly<Record<string, string | undefined>>
):
  | {
    readonly _tag: "Valid"
    readonly http: string | undefined
    readonly https: string | undefined
    readonly noProxy: string
  }
  | Invalid =>
{
  const read = (lower: string, upper: string): { readonly url: string | undefined } | Invalid => {
    const name = variables[lower] !== undefined ? lower : upper
    const text = variables[name]
    if (text === undefined || text === "") return { url: undefined }
    const checked = checkUrl(name, text)
    return checked._tag === "Invalid" ? checked : { url: checked.url }
  }
  const http = read("http_proxy", "HTTP_PROXY")
  if ("_tag" in http) return http
  const https = read("https_proxy", "HTTPS_PROXY")
  if ("_tag" in https) return https
  return {
    _tag: "Valid",
    http: http.url,
    https: https.url ?? http.url,
    noProxy: variables.no_proxy ?? variables.NO_PROXY ?? ""
  }
}
