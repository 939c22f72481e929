import { describe, expect, it } from "vitest"
import * as QueryText from "../../src/query/QueryText.js"

const integers = ["page", "limit"]

describe("QueryText.read", () => {
  it("reads integer parameters from base-10 integer text only, the others as text", () => {
    const values = (params: Record<string, string>) => {
      const read = QueryText.read(integers, params)
      return "input" in read ? { ...read.input } : read
    }
    expect(values({ coin: "USDT", page: "2", limit: "500" })).toEqual({ coin: "USDT", page: 2, limit: 500 })
    expect(values({ page: "0" })).toEqual({ page: 0 })
    for (const bad of ["-1", "1.0", "01", "1e3", "", " 1", "0x14", "99999999999999999999"]) {
      expect(QueryText.read(integers, { coin: "USDT", page: bad })).toEqual({
        violation: { parameter: "page", rule: "must be base-10 integer text", kind: "invalid" }
      })
    }
  })

  it("names the first integer parameter whose text is not an integer", () => {
    expect(QueryText.read(integers, { limit: "x", page: "y" })).toEqual({
      violation: { parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" }
    })
  })

  it("a parameter named __proto__ becomes a key of a null-prototype object, not its prototype", () => {
    const hostile = JSON.parse("{\"coin\":\"USDT\",\"__proto__\":\"x\"}") as Record<string, string>
    const read = QueryText.read(integers, hostile)
    if (!("input" in read)) throw new Error("expected values")
    expect(Object.getPrototypeOf(read.input)).toBe(null)
    expect(Object.keys(read.input)).toEqual(["coin", "__proto__"])
    expect(read.input["__proto__"]).toBe("x")
  })
})
