import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PageOrder from "../../src/walk/PageOrder.js"
import { prop } from "../support/Property.js"

interface R {
  readonly id: string
  readonly t: number
}

const order: PageOrder.Order<R> = {
  time: (r) => r.t,
  key: (r) => r.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

const r = (t: number, id: string): R => ({ id, t })

/** The reference: the records sorted, each (time, id) once. */
const expected = (page: ReadonlyArray<R>) => {
  const seen = new Set<string>()
  return [...page].sort(order.compare).filter((x) => {
    const k = `${x.t}/${x.id}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

describe("PageOrder: a window's records ascending, each once (every record inside the window: QueryCheck)", () => {
  it("a page in order is returned as it is", () => {
    const page = [r(1, "a"), r(1, "b"), r(5, "a")]
    expect(PageOrder.ascending(order, page)).toBe(page)
  })

  it("a page newest first (the reference service's order) is reversed", () => {
    const page = [r(5, "a"), r(1, "b"), r(1, "a")]
    expect(PageOrder.ascending(order, page)).toEqual([r(1, "a"), r(1, "b"), r(5, "a")])
  })

  it("a page in no order is sorted", () => {
    const page = [r(3, "c"), r(1, "a"), r(5, "e"), r(2, "b")]
    expect(PageOrder.ascending(order, page).map((x) => x.id)).toEqual(["a", "b", "c", "e"])
  })

  it("a record sent twice is kept once, in order or not", () => {
    expect(PageOrder.ascending(order, [r(1, "a"), r(2, "b"), r(2, "b")])).toEqual([r(1, "a"), r(2, "b")])
    expect(PageOrder.ascending(order, [r(2, "b"), r(2, "b"), r(1, "a")])).toEqual([r(1, "a"), r(2, "b")])
    expect(PageOrder.ascending(order, [r(2, "b"), r(1, "a"), r(2, "b")])).toEqual([r(1, "a"), r(2, "b")])
  })

  it("distinct drops a record with the time and key of the one before it", () => {
    expect(PageOrder.distinct(order, [r(1, "a"), r(1, "a"), r(1, "b"), r(2, "b"), r(2, "b")])).toEqual([
      r(1, "a"),
      r(1, "b"),
      r(2, "b")
    ])
  })

  const pageArb = fc.array(
    fc.record({ t: fc.integer({ min: 0, max: 20 }), id: fc.constantFrom("a", "b", "c", "d", "e", "f") }),
    { maxLength: 40 }
  )

  prop(
    "property: any page, in any order, with repeats → its records ascending, each once",
    {
      page: pageArb,
      arrangement: fc.constantFrom("as is", "ascending", "descending")
    },
    ({ arrangement, page }) => {
      const arranged = arrangement === "as is"
        ? page
        : arrangement === "ascending"
        ? [...page].sort(order.compare)
        : [...page].sort((a, b) => order.compare(b, a))
      const before = JSON.stringify(arranged)
      expect(PageOrder.ascending(order, arranged)).toEqual(expected(arranged))
      // The page it was given is left as it was.
      expect(JSON.stringify(arranged)).toBe(before)
    },
    { fastCheck: { numRuns: 300 } }
  )
})
