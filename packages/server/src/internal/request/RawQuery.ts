/**
 * The query string as received: split into parameters in order, names and values still as sent,
 * plus their percent-decoded text when it decodes.
 *
 * @internal
 */

/**
 * One received parameter: `rawName`/`rawValue` as sent, `name`/`value` percent-decoded (RFC 3986,
 * `+` stays a plus sign), or `undefined` when the raw text is not valid percent-encoded UTF-8.
 */
export interface Param {
  readonly rawName: string
  readonly rawValue: string
  readonly name: string | undefined
  readonly value: string | undefined
}

/** Percent-decodes one name or value, or `undefined` when it is malformed (`%zz`, a lone `%`, bad UTF-8). */
export const decode = (text: string): string | undefined => {
  if (!text.includes("%")) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * Splits a raw query string (without `?`) at `&`, and each part at its first `=`; a part without `=`
 * is a name with an empty value, and the empty string has no parameters.
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

/** The query part of a request target (`/path?query`), as received. */
export const ofUrl = (url: string): string => {
  const at = url.indexOf("?")
  return at === -1 ? "" : url.slice(at + 1)
}

/** The path part of a request target without its query string, which is what is safe to log. */
export const pathOfUrl = (url: string): string => {
  const at = url.indexOf("?")
  return at === -1 ? url : url.slice(0, at)
}

/**
 * A parameter name fit for an error message: at most 40 characters and an ellipsis, so a hostile
 * 10 KB name is not echoed back.
 */
export const label = (name: string): string => (name.length > 40 ? name.slice(0, 40) + "…" : name)
