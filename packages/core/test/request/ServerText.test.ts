import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ServerText from "../../src/request/ServerText.js"
import { prop } from "../support/Property.js"

// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

// Text rich in what a hostile service would send: escape sequences, line breaks, C1 controls, bidi
// overrides, astral characters (surrogate pairs) and plain text.
const hostileText = fc.stringOf(
  fc.oneof(
    fc.constantFrom("\u001b[31m", "\u001b]0;title\u0007", "\r\n", "\u009b", "\u007f", "\u0000", "\t", "\u2028"),
    fc.constantFrom("\u202e", "\u2066", "😀", "é", "€", "…", "\uFFFD"),
    fc.string({ maxLength: 5 })
  ),
  { maxLength: 120 }
)

describe("ServerText.sanitize", () => {
  it("replaces escape sequences, line breaks and C1 controls, keeping the rest", () => {
    expect(ServerText.sanitize("\u001b[2J\u001b]0;owned\u0007red\r\nnext\u009b1m\u007f")).toBe(
      "\uFFFD[2J\uFFFD]0;owned\uFFFDred\uFFFD\uFFFDnext\uFFFD1m\uFFFD"
    )
    expect(ServerText.sanitize("Signature for this request is not valid.")).toBe(
      "Signature for this request is not valid."
    )
    expect(ServerText.sanitize("abc\u202edcba")).toBe("abc\uFFFDdcba")
  })

  it("cuts long text to its first characters and an ellipsis, reading only those", () => {
    const long = "x".repeat(5_000_000)
    expect(ServerText.sanitize(long)).toBe("x".repeat(ServerText.maxLength) + "…")
    expect(ServerText.sanitize("abcdef", 3)).toBe("abc…")
    expect(ServerText.sanitize("abc", 3)).toBe("abc")
    // A surrogate pair at the cut is dropped whole, never halved.
    expect(ServerText.sanitize("ab😀cd", 3)).toBe("ab…")
  })

  prop(
    "no unsafe character survives; the result is at most max + 1 characters; clean short text is unchanged",
    [hostileText, fc.integer({ min: 1, max: 400 })],
    ([text, max]) => {
      const safe = ServerText.sanitize(text, max)
      expect(safe).not.toMatch(unsafe)
      expect(safe.length).toBeLessThanOrEqual(max + 1)
      if (text.length <= max && !unsafe.test(text)) expect(safe).toBe(text)
      // What is kept is the text's start, each unsafe character replaced one for one.
      const kept = safe.endsWith("…") && text.length > max ? safe.slice(0, -1) : safe
      expect(kept.length).toBeLessThanOrEqual(text.length)
      for (let i = 0; i < kept.length; i++) {
        expect(kept[i] === text[i] || (kept[i] === "\uFFFD" && unsafe.test(text[i]!))).toBe(true)
      }
      // Sanitising twice changes nothing more (the ellipsis aside).
      expect(ServerText.sanitize(safe, max + 1)).toBe(safe)
    },
    { fastCheck: { numRuns: 500 } }
  )
})

describe("ServerText.summary", () => {
  it("names a value's kind in a few words, never the whole of it", () => {
    expect(ServerText.summary(null)).toBe("null")
    expect(ServerText.summary(undefined)).toBe("nothing")
    expect(ServerText.summary([1])).toBe("an array of 1 element")
    expect(ServerText.summary(Array.from({ length: 5000 }))).toBe("an array of 5000 elements")
    expect(ServerText.summary({})).toBe("an empty object")
    expect(ServerText.summary({ a: 1, b: 2 })).toBe("an object with fields a, b")
    expect(ServerText.summary({ a: 1, b: 2, c: 3, d: 4 })).toBe("an object with fields a, b, c, …")
    expect(ServerText.summary(12.5)).toBe("12.5")
    expect(ServerText.summary(true)).toBe("true")
  })

  prop(
    "bounded and safe whatever the text, field names included",
    [hostileText],
    ([text]) => {
      for (const value of [text, { [text]: 1 }, { a: 1, b: 2, [text]: 3, c: 4 }, text.length]) {
        const said = ServerText.summary(value)
        expect(said).not.toMatch(unsafe)
        expect(said.length).toBeLessThanOrEqual(60 + 3 * 41 + 30)
      }
    }
  )
})
