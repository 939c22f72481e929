/**
 * The canonical query string: the exact text that is signed and sent.
 *
 * Parameters keep the order given; values are percent-encoded per RFC 3986 with uppercase hex, so
 * the string signed is byte for byte the string on the wire.
 *
 * @since 0.2.0
 */

/**
 * One query parameter, as a `[name, value]` pair. Order matters: it is the order signed and sent.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * const params: ReadonlyArray<QueryString.Param> = [["limit", "20"], ["coin", "USDT"]]
 * assert.strictEqual(QueryString.make(params), "limit=20&coin=USDT")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Param = readonly [name: string, value: string]

/**
 * The parameters of a query, in the order `names` gives: each field of `names` that is present, as
 * text (numbers in base 10). Fields not named are not sent.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * const toParams = QueryString.fields<{ readonly coin?: string; readonly limit?: number }>(["coin", "limit"])
 * assert.deepStrictEqual(toParams({ limit: 20, coin: "USDT" }), [["coin", "USDT"], ["limit", "20"]])
 * assert.deepStrictEqual(toParams({ limit: 20 }), [["limit", "20"]])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const fields = <Q extends { readonly [K in keyof Q]?: string | number | undefined }>(
  names: ReadonlyArray<keyof Q & string>
) =>
(query: Q): Array<Param> => {
  const out: Array<Param> = []
  for (const name of names) {
    const value = query[name]
    if (value !== undefined) out.push([name, String(value)])
  }
  return out
}

const needsExtraEncoding = /[!'()*]/g
const extraEncode = (c: string): string => "%" + c.charCodeAt(0).toString(16).toUpperCase()

/**
 * Percent-encodes one name or value per RFC 3986: everything except `A-Z a-z 0-9 - _ . ~`.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * assert.strictEqual(QueryString.encode("a b*"), "a%20b%2A")
 * assert.strictEqual(QueryString.encode("sub@test.com"), "sub%40test.com")
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const encode = (value: string): string => encodeURIComponent(value).replace(needsExtraEncoding, extraEncode)

/**
 * Joins parameters into `name=value&…` in the order given, each part RFC 3986 encoded.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * assert.strictEqual(
 *   QueryString.make([["fromAccount", "master@test.com"], ["limit", "20"]]),
 *   "fromAccount=master%40test.com&limit=20"
 * )
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const make = (params: Iterable<Param>): string => {
  let out = ""
  for (const [name, value] of params) {
    if (out.length > 0) out += "&"
    out += encode(name) + "=" + encode(value)
  }
  return out
}

/**
 * Appends `signature=<hex>` to an already built query string (the signature goes last).
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * assert.strictEqual(QueryString.withSignature("a=1&timestamp=2", "ab"), "a=1&timestamp=2&signature=ab")
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const withSignature = (query: string, signature: string): string =>
  query.length === 0 ? "signature=" + signature : query + "&signature=" + signature

/**
 * The parts of a received query string: the payload that was signed and the signature sent with it.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * const received: QueryString.SignedQuery | undefined = QueryString.splitSignature("a=1&signature=ab")
 * assert.deepStrictEqual(received, { payload: "a=1", signature: "ab" })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SignedQuery {
  readonly payload: string
  readonly signature: string
}

/**
 * Splits a raw received query string (without the leading `?`) into the signed payload and the
 * signature. The signature must be the last parameter and appear exactly once; otherwise `undefined`.
 *
 * @example
 * ```ts
 * import * as QueryString from "@broker-history/core/signing/QueryString"
 *
 * assert.deepStrictEqual(QueryString.splitSignature("a=1&timestamp=2&signature=ab"), {
 *   payload: "a=1&timestamp=2",
 *   signature: "ab"
 * })
 * assert.strictEqual(QueryString.splitSignature("signature=ab&a=1"), undefined)
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const splitSignature = (raw: string): SignedQuery | undefined => {
  const marker = raw.lastIndexOf("signature=")
  if (marker === -1 || (marker !== 0 && raw[marker - 1] !== "&")) return undefined
  const signature = raw.slice(marker + "signature=".length)
  if (signature.length === 0 || signature.includes("&")) return undefined
  const payload = marker === 0 ? "" : raw.slice(0, marker - 1)
  if (/(^|&)signature=/.test(payload)) return undefined
  return { payload, signature }
}
