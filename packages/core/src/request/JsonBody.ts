/**
 * JSON bodies read from their bytes.
 *
 * A full page is over 128 KB of JSON. Decoded as one string, that string is a large object of V8's
 * heap (its own memory mapping, allocated and released for every page), which costs about as much
 * as parsing the page. So a large top-level array is parsed in parts of at most `partBytes`, each
 * decoded to a regular string:
 *
 * - a part ends at a `},{` between two elements: its `,` is read as `]` for this part and as `[`
 *   for the next (the byte is restored at once; the bytes are this answer's own copy);
 * - a split that is not a real boundary between top-level elements (inside a string, inside a
 *   nested value) cannot parse: the lexer is then inside a string or has an unclosed bracket where
 *   the part ends. Such a part is cut again at an earlier separator (a few times); if it still does
 *   not parse, the whole body goes to `JSON.parse`, so the result, and the error for bad JSON, are
 *   always exactly those of `JSON.parse` on the whole text.
 *
 * Text that is not ASCII is decoded through Node's `transcode` to UTF-16 when it is valid UTF-8: V8's
 * own UTF-8 decoding of non-ASCII text costs several times the parse of it. Anything else (ASCII,
 * invalid UTF-8, a runtime without Node's buffer module) is decoded with `toString`, so the text is
 * always that of a UTF-8 decoding.
 *
 * @since 0.2.0
 */
import type * as NodeBuffer from "node:buffer"

/**
 * Largest part, in bytes: its text stays well under V8's 128 KB large-object size even as UTF-16.
 *
 * @example
 * ```ts
 * import * as JsonBody from "@broker-history/core/request/JsonBody"
 *
 * assert.strictEqual(JsonBody.partBytes, 49_152)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const partBytes = 48 * 1024

const OPEN = 0x5b // [
const CLOSE = 0x5d // ]
const COMMA = 0x2c // ,
const separator = "},{"

/**
 * Node's buffer module, where the runtime has one with all three functions used here (bodies come as
 * bytes only from Node's carrier; a Node built without ICU has no `transcode`).
 */
const nodeBuffer: typeof NodeBuffer | undefined = (() => {
  const module: Partial<typeof NodeBuffer> | undefined = globalThis.process?.getBuiltinModule?.("node:buffer")
  return typeof module?.isAscii === "function" && typeof module.isUtf8 === "function" &&
      typeof module.transcode === "function"
    ? module as typeof NodeBuffer
    : undefined
})()

/**
 * `buffer[from, to)` as UTF-8 text. Valid non-ASCII UTF-8 goes through `transcode` (the same text);
 * ASCII, invalid UTF-8 (replacement characters as `toString` makes them) and other runtimes through
 * `toString`.
 */
const decode = (buffer: Buffer, from: number, to: number): string => {
  if (nodeBuffer !== undefined) {
    const bytes = buffer.subarray(from, to)
    if (!nodeBuffer.isAscii(bytes) && nodeBuffer.isUtf8(bytes)) {
      return nodeBuffer.transcode(bytes, "utf8", "utf16le").toString("utf16le")
    }
  }
  return buffer.toString("utf8", from, to)
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Where the text starts: after a UTF-8 byte order mark, if any (as `Response.text()` does). */
const textStart = (buffer: Buffer): number =>
  buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0

/**
 * A body as a carrier delivers it: its bytes, or text already decoded (the platform `HttpClient`
 * carrier reads text: rendering a platform response, as a tracer or logger may, reads its body as
 * text, and its bytes can then no longer be read).
 *
 * @example
 * ```ts
 * import * as JsonBody from "@broker-history/core/request/JsonBody"
 *
 * const bodies: ReadonlyArray<JsonBody.Body> = [new TextEncoder().encode("[1]"), "[1]"]
 * assert.deepStrictEqual(bodies.map(JsonBody.parse), [[1], [1]])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Body = Uint8Array | string

/**
 * The body as text (UTF-8, a leading byte order mark dropped).
 *
 * @example
 * ```ts
 * import * as JsonBody from "@broker-history/core/request/JsonBody"
 *
 * assert.strictEqual(JsonBody.text(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])), "{}")
 * assert.strictEqual(JsonBody.text("{}"), "{}")
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const text = (body: Body): string => {
  if (typeof body === "string") return body
  const buffer = asBuffer(body)
  return decode(buffer, textStart(buffer), buffer.length)
}

/**
 * `JSON.parse` of the body's text: the same value, or the same `SyntaxError`. Throws as
 * `JSON.parse` does.
 *
 * @example
 * ```ts
 * import * as JsonBody from "@broker-history/core/request/JsonBody"
 *
 * assert.deepStrictEqual(JsonBody.parse(new TextEncoder().encode(`[{"a":1},{"a":"é"}]`)), [{ a: 1 }, { a: "é" }])
 * assert.throws(() => JsonBody.parse("[1,"), SyntaxError)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const parse = (body: Body): unknown => parseInParts(body, partBytes)

/**
 * `parse` with parts of at most `maxPart` bytes (small parts in tests). Text is parsed whole.
 *
 * @example
 * ```ts
 * import * as JsonBody from "@broker-history/core/request/JsonBody"
 *
 * const body = new TextEncoder().encode(JSON.stringify([{ a: "},{" }, { b: [1, 2] }, { c: null }]))
 * assert.deepStrictEqual(JsonBody.parseInParts(body, 8), [{ a: "},{" }, { b: [1, 2] }, { c: null }])
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const parseInParts = (body: Body, maxPart: number): unknown => {
  if (typeof body === "string") return JSON.parse(body)
  const buffer = asBuffer(body)
  const start = textStart(buffer)
  const end = buffer.length
  const whole = () => JSON.parse(decode(buffer, start, end))
  if (end - start <= maxPart) return whole()
  let first = start
  while (first < end && isSpace(buffer[first]!)) first++
  if (buffer[first] !== OPEN) return whole()
  return inParts(buffer, start, end, maxPart) ?? whole()
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** Separators tried for the end of one part before the whole body is parsed in one piece. */
const triesPerPart = 4

/**
 * The elements of the array in `buffer[start, end)`, parsed in parts of at most `maxPart` bytes where
 * the separators allow; `undefined` if a part does not parse at any of the separators tried (bad
 * JSON, or `},{` inside strings everywhere near the cut).
 */
const inParts = (buffer: Buffer, start: number, end: number, maxPart: number): Array<unknown> | undefined => {
  let out: Array<unknown> | undefined
  // The current part starts at `from`; after the first part, `from` is a separator's `,`, read as `[`.
  let from = start
  while (true) {
    let cut = end - from > maxPart ? buffer.lastIndexOf(separator, from + maxPart - 3) : -1
    if (cut !== -1 && cut <= from) cut = buffer.indexOf(separator, from + 1)
    let part = parsePart(buffer, start, from, cut, end)
    // A cut inside a string or a nested value does not parse: try the separator before it.
    for (let tries = 1; part === undefined && cut !== -1 && tries < triesPerPart; tries++) {
      const earlier = buffer.lastIndexOf(separator, cut - 1)
      cut = earlier > from ? earlier : -1
      part = parsePart(buffer, start, from, cut, end)
    }
    if (part === undefined) return undefined
    if (out === undefined) out = part
    else for (let i = 0; i < part.length; i++) out.push(part[i])
    if (cut === -1) return out
    from = cut + 1
  }
}

/**
 * The part from `from` (the body's start, or a separator's `,` read as `[`) to the separator at
 * `cut` (its `,` read as `]`; -1: to the end), parsed; `undefined` when it does not parse.
 */
const parsePart = (
  buffer: Buffer,
  start: number,
  from: number,
  cut: number,
  end: number
): Array<unknown> | undefined => {
  if (from !== start) buffer[from] = OPEN
  if (cut !== -1) buffer[cut + 1] = CLOSE
  const partText = decode(buffer, from, cut === -1 ? end : cut + 2)
  if (from !== start) buffer[from] = COMMA
  if (cut !== -1) buffer[cut + 1] = COMMA
  try {
    const part: unknown = JSON.parse(partText)
    return Array.isArray(part) ? part : undefined
  } catch {
    return undefined
  }
}
