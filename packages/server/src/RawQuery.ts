/**
 * The query string as received: split into parameters in order, names and values still as sent,
 * plus their percent-decoded text when it decodes.
 *
 * @since 0.1.0
 */

/**
 * One received parameter. `name`/`value` are decoded (RFC 3986 percent-encoding; `+` is kept as a
 * plus sign) or `undefined` when the raw text is not valid percent-encoded UTF-8.
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.parse("coin=US%44T")[0] // { rawName: "coin", rawValue: "US%44T", name: "coin", value: "USDT" }
 */
export interface Param {
  readonly rawName: string
  readonly rawValue: string
  readonly name: string | undefined
  readonly value: string | undefined
}

/**
 * Percent-decodes one name or value; `undefined` when malformed (`%zz`, a lone `%`, bad UTF-8).
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.decode("a%20b") // "a b"
 * RawQuery.decode("%E0%A4%A") // undefined
 */
export const decode = (text: string): string | undefined => {
  if (!text.includes("%")) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * Splits a raw query string (without `?`) at `&`, and each part at its first `=`; a part without
 * `=` is a name with an empty value. The empty string has no parameters.
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.parse("a=1&b").map((p) => [p.name, p.value]) // [["a", "1"], ["b", ""]]
 */
export const parse = (raw: string): ReadonlyArray<Param> => {
  if (raw.length === 0) return []
  return raw.split("&").map((part) => {
    const at = part.indexOf("=")
    const rawName = at === -1 ? part : part.slice(0, at)
    const rawValue = at === -1 ? "" : part.slice(at + 1)
    return { rawName, rawValue, name: decode(rawName), value: decode(rawValue) }
  })
}

/**
 * The query part of a request target (`/path?query`), as received.
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.ofUrl("/api/v3/ping?a=1") // "a=1"
 */
export const ofUrl = (url: string): string => {
  const at = url.indexOf("?")
  return at === -1 ? "" : url.slice(at + 1)
}

/**
 * The path part of a request target, without the query string (safe to log).
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.pathOfUrl("/api/v3/time?signature=abc") // "/api/v3/time"
 */
export const pathOfUrl = (url: string): string => {
  const at = url.indexOf("?")
  return at === -1 ? url : url.slice(0, at)
}

/**
 * A parameter name fit for an error message: at most 40 characters, so a hostile 10 KB name is not
 * echoed back.
 *
 * @example
 * import { RawQuery } from "@broker-history/server"
 * RawQuery.label("x".repeat(100)).length // 41
 */
export const label = (name: string): string => (name.length > 40 ? name.slice(0, 40) + "…" : name)
