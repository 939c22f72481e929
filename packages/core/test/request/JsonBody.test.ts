import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { afterEach, vi } from "vitest"
import * as JsonBody from "../../src/request/JsonBody.js"
import { prop } from "../support/Property.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const encode = (text: string) => new Uint8Array(Buffer.from(text, "utf8"))
/** The text the bytes hold (a lone surrogate in a JS string does not survive UTF-8). */
const decode = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8").replace(/^\uFEFF/, "")
const bom = Uint8Array.of(0xef, 0xbb, 0xbf)
const withBom = (bytes: Uint8Array) => {
  const out = new Uint8Array(bom.length + bytes.length)
  out.set(bom)
  out.set(bytes, bom.length)
  return out
}

/** What `JSON.parse` does with `text`: the value, or the error's class and message. */
const outcome = (f: () => unknown): { readonly value: unknown } | { readonly error: string } => {
  try {
    return { value: f() }
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` }
  }
}

// Text that is hard on a split at `},{`: the separator itself, brackets, quotes, escapes, non-ASCII.
const tricky = fc.stringOf(
  fc.constantFrom("},{", "}", "{", ",", "]", "[", "\"", "\\", "a", "0", " ", "é", "€", "😀", "\n"),
  { maxLength: 12 }
)
const record = fc.record({ id: fc.integer(), note: tricky, amount: fc.constantFrom("1.5", "0.00000001") })
const element: fc.Arbitrary<unknown> = fc.oneof(
  record,
  // `},{` one level down, which is not a boundary between elements.
  fc.record({ inner: fc.array(record, { maxLength: 4 }) }),
  fc.array(fc.array(record, { maxLength: 3 }), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 })
)
const layout = fc.constantFrom<(v: unknown) => string>(
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 1),
  (v) => " \n" + JSON.stringify(v) + "\n"
)

describe("JsonBody", () => {
  prop(
    "parses exactly as JSON.parse of the whole text, whatever the part size, and leaves the bytes as they were",
    [fc.array(element, { maxLength: 40 }), layout, fc.integer({ min: 1, max: 300 }), fc.boolean()],
    ([elements, show, maxPart, markBom]) => {
      const text = show(elements)
      const bytes = markBom ? withBom(encode(text)) : encode(text)
      const before = Buffer.from(bytes)
      expect(JsonBody.parseInParts(bytes, maxPart)).toStrictEqual(JSON.parse(decode(bytes)))
      expect(Buffer.from(bytes).equals(before)).toBe(true)
    },
    { fastCheck: { numRuns: 1500 } }
  )

  prop(
    "fails (or succeeds) on damaged JSON exactly as JSON.parse of the whole text",
    [
      fc.array(element, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 1, max: 200 }),
      fc.nat(),
      fc.constantFrom("cut", "insert", "replace"),
      fc.constantFrom("}", "{", "]", "[", ",", "\"", "x", "},{")
    ],
    ([elements, maxPart, at, damage, piece]) => {
      const valid = JSON.stringify(elements)
      const i = at % valid.length
      const text = damage === "cut"
        ? valid.slice(0, i)
        : damage === "insert"
        ? valid.slice(0, i) + piece + valid.slice(i)
        : valid.slice(0, i) + piece + valid.slice(i + 1)
      const bytes = encode(text)
      expect(outcome(() => JsonBody.parseInParts(bytes, maxPart))).toStrictEqual(
        outcome(() => JSON.parse(decode(bytes)))
      )
    },
    { fastCheck: { numRuns: 1500 } }
  )

  const page = (clientTranId: (i: number) => string | null) =>
    Array.from({ length: 2_000 }, (_, i) => ({
      tranId: String(11_945_860_693 + i),
      clientTranId: clientTranId(i),
      fromAccount: "master@broker.example.com",
      asset: "USDT",
      amount: `${i}.12345678`,
      status: "SUCCESS",
      timestamp: 1_700_000_000_000 + i
    }))

  it.each([
    ["plain records", page((i) => i % 3 === 0 ? null : `client-${i}`)],
    ["`},{` inside strings next to the cuts", page((i) => i % 2 === 0 ? `client-},{-${i}` : null)]
  ])("reads a large page in parts of at most partBytes (%s)", (_name, records) => {
    const bytes = encode(JSON.stringify(records))
    expect(bytes.length).toBeGreaterThan(4 * JsonBody.partBytes)
    const parse = vi.spyOn(JSON, "parse")
    expect(JsonBody.parse(bytes)).toStrictEqual(records)
    const parts = parse.mock.calls.map(([text]) => (text as string).length)
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil(bytes.length / JsonBody.partBytes))
    expect(Math.max(...parts)).toBeLessThanOrEqual(JsonBody.partBytes)
  })

  it("parses a small body, or one that is not an array, in one piece", () => {
    const parse = vi.spyOn(JSON, "parse")
    expect(JsonBody.parse(encode("[{\"a\":1},{\"a\":2}]"))).toStrictEqual([{ a: 1 }, { a: 2 }])
    const big = { list: Array.from({ length: 5_000 }, (_, i) => ({ i })) }
    expect(JsonBody.parse(encode(JSON.stringify(big)))).toStrictEqual(big)
    expect(parse).toHaveBeenCalledTimes(2)
  })

  it("parses a body that arrived as text as JSON.parse does", () => {
    const text = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => ({ i })))
    expect(JsonBody.parse(text)).toStrictEqual(JSON.parse(text))
    expect(() => JsonBody.parse("[1,")).toThrow(SyntaxError)
  })

  prop(
    "decodes any bytes as UTF-8 decoding does: ASCII, valid non-ASCII, invalid sequences, a mark in the middle",
    [
      fc.array(
        fc.oneof(
          fc.string({ maxLength: 8 }).map(encode),
          fc.fullUnicodeString({ maxLength: 8 }).map(encode),
          fc.uint8Array({ maxLength: 6 }),
          fc.constant(bom)
        ),
        { maxLength: 20 }
      ),
      fc.boolean()
    ],
    ([pieces, markBom]) => {
      const bytes = new Uint8Array(Buffer.concat([...(markBom ? [bom] : []), ...pieces]))
      expect(JsonBody.text(bytes)).toBe(decode(bytes))
    },
    { fastCheck: { numRuns: 1500 } }
  )

  prop(
    "parses a large body with invalid UTF-8 inside its strings as JSON.parse of its UTF-8 decoding",
    [fc.array(record, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 300 }), fc.nat()],
    ([records, maxPart, at]) => {
      const bytes = encode(JSON.stringify(records.map((r, i) => i === at % records.length ? { ...r, note: "§" } : r)))
      const i = Buffer.from(bytes).indexOf(Buffer.from("§"))
      bytes[i] = 0xff
      expect(JsonBody.parseInParts(bytes, maxPart)).toStrictEqual(JSON.parse(decode(bytes)))
    },
    { fastCheck: { numRuns: 500 } }
  )

  it("decodes non-ASCII parts through Node's transcode and ASCII ones without it", () => {
    const buffer = process.getBuiltinModule("node:buffer")
    const transcode = vi.spyOn(buffer, "transcode")
    const ascii = page((i) => `client-${i}`)
    expect(JsonBody.parse(encode(JSON.stringify(ascii)))).toStrictEqual(ascii)
    expect(transcode).not.toHaveBeenCalled()
    const memo = page((i) => `メモ ${i} 備註 Überweisung 😀`)
    expect(JsonBody.parse(encode(JSON.stringify(memo)))).toStrictEqual(memo)
    expect(transcode.mock.calls.length).toBeGreaterThanOrEqual(4)
  })

  it("a deeply nested body parses, or fails, exactly as JSON.parse does, without overflowing the stack", () => {
    // 200,000 levels, as bytes over the part size and as text: the parse itself holds (V8's JSON.parse
    // does not recurse); what must not recurse over such a value is what reports it (internal/request/Answer).
    const nested = "[".repeat(200_000) + "]".repeat(200_000)
    // Its depth, counted without recursion (a deep equality check would overflow the stack itself).
    const depth = (value: unknown) => {
      let levels = 0
      for (let v = value; Array.isArray(v); v = v[0]) levels++
      return levels
    }
    for (const body of [encode(nested), nested]) expect(depth(JsonBody.parse(body))).toBe(200_000)
    const unclosed = "[".repeat(200_000)
    expect(outcome(() => JsonBody.parse(encode(unclosed)))).toStrictEqual(outcome(() => JSON.parse(unclosed)))
  })

  it("reads text without a byte order mark", () => {
    expect(JsonBody.text(withBom(encode("{\"code\":700003}")))).toBe("{\"code\":700003}")
    expect(JsonBody.parse(withBom(encode("[1,2]")))).toStrictEqual([1, 2])
  })
})
