import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Accepts from "../../src/query/Accepts.js"
import { prop } from "../support/Property.js"

const fields: ReadonlyArray<Accepts.Field> = [
  { name: "coin", optional: false, accepts: (u) => typeof u === "string" },
  { name: "limit", optional: true, accepts: (u) => typeof u === "number" }
]

describe("Accepts.struct", () => {
  const accepts = Accepts.struct(fields, (u) => (u as { limit?: number }).limit !== 0)

  it("accepts a plain object of known keys, required ones present, each value accepted, and the whole", () => {
    expect(accepts({ coin: "USDT" })).toBe(true)
    expect(accepts({ coin: "USDT", limit: 20 })).toBe(true)
    expect(accepts({ coin: "USDT", limit: 0 })).toBe(false)
    expect(accepts({ limit: 20 })).toBe(false)
    expect(accepts({ coin: 1 })).toBe(false)
    expect(accepts({ coin: "USDT", page: 1 })).toBe(false)
  })

  it("vouches for nothing else: inherited keys, symbols, arrays, null, other values", () => {
    expect(accepts(Object.create({ coin: "USDT" }))).toBe(false)
    expect(accepts({ coin: "USDT", [Symbol("s")]: 1 })).toBe(false)
    expect(accepts([])).toBe(false)
    expect(accepts(null)).toBe(false)
    expect(accepts("coin")).toBe(false)
  })

  prop(
    "true exactly when the keys are known, the required ones there and every value accepted",
    [fc.dictionary(fc.constantFrom("coin", "limit", "page", "__proto__"), fc.oneof(fc.string(), fc.integer()))],
    ([input]) => {
      const keys = Object.keys(input)
      const expected = keys.every((k) => k === "coin" || k === "limit") && typeof input["coin"] === "string" &&
        (!keys.includes("limit") || typeof input["limit"] === "number")
      expect(Accepts.struct(fields, () => true)(input)).toBe(expected)
    }
  )
})
