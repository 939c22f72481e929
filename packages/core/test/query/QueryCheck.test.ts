import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Filter } from "../../src/query/QueryCheck.js"
import * as QueryCheck from "../../src/query/QueryCheck.js"
import { prop } from "../support/Property.js"

interface R {
  readonly id: string
  readonly t: number
  readonly from: string
  readonly to: string
}

const r = (t: number, id: string, from = "master", to = "sub1"): R => ({ id, t, from, to })

const query = (
  start: number,
  end: number,
  filters: ReadonlyArray<Filter<R>> = [],
  limit = 500
): QueryCheck.Query<R> => ({
  start,
  end,
  limit,
  time: (x) => x.t,
  key: (x) => x.id,
  filters
})

const from = (value: string | undefined): Filter<R> => ({ field: "fromAccount", read: (x) => x.from, value })
const to = (value: string | undefined): Filter<R> => ({ field: "toAccount", read: (x) => x.to, value })

describe("QueryCheck: an answer holds only what its query asked for", () => {
  it("records inside the window, matching the filters: nothing to say", () => {
    expect(QueryCheck.firstOutside([r(1, "a"), r(5, "b"), r(3, "c")], query(1, 5, [to("sub1")]))).toBeUndefined()
    expect(QueryCheck.firstOutside([], query(1, 5))).toBeUndefined()
    // Open bounds: a page call without startTime/endTime.
    expect(QueryCheck.firstOutside([r(-9, "a"), r(9e15, "b")], query(-Infinity, Infinity))).toBeUndefined()
  })

  it("the first record outside the window, named with its time and the window", () => {
    expect(QueryCheck.firstOutside([r(2, "a"), r(6, "b"), r(0, "c")], query(1, 5))).toEqual({
      index: 1,
      description:
        `record "b" at 1970-01-01T00:00:00.006Z is outside the query's window 1970-01-01T00:00:00.001Z..1970-01-01T00:00:00.005Z`
    })
    expect(QueryCheck.firstOutside([r(0, "c")], query(1, Infinity))?.description).toBe(
      `record "c" at 1970-01-01T00:00:00.000Z is outside the query's window 1970-01-01T00:00:00.001Z..*`
    )
    // A time that is not a number is outside any window.
    expect(QueryCheck.firstOutside([r(Number.NaN, "n")], query(-Infinity, Infinity))?.index).toBe(0)
  })

  it("a field with another value than the query's; an empty field passes", () => {
    const filters = [from(undefined), to("sub1")]
    expect(QueryCheck.firstOutside([r(1, "a"), r(2, "b", "master", "sub2")], query(0, 9, filters))).toEqual({
      index: 1,
      description: `record "b" at 1970-01-01T00:00:00.002Z has toAccount "sub2", not "sub1" as the query asked`
    })
    expect(QueryCheck.firstOutside([r(1, "a", "", "")], query(0, 9, filters))).toBeUndefined()
  })

  it("an omitted account (the master account): every record of the answer names one account there", () => {
    const filters = [from(undefined), to(undefined)]
    // Master → master: each field holds one name across the answer (an empty one says nothing).
    expect(QueryCheck.firstOutside([r(1, "a", "m", "m"), r(2, "b", "", "m")], query(0, 9, filters))).toBeUndefined()
    expect(
      QueryCheck.firstOutside([r(1, "a", "m", "m"), r(2, "b", "", "m"), r(3, "c", "m", "s")], query(0, 9, filters))
    )
      .toEqual({
        index: 2,
        description: `record "c" at 1970-01-01T00:00:00.003Z has toAccount "s" where record "a" at ` +
          `1970-01-01T00:00:00.001Z of the same answer has "m": the query omitted toAccount, which means the ` +
          `master account, one account`
      })
  })

  it("values from the service are quoted, cut short and stripped of control characters", () => {
    const long = "x".repeat(1_000)
    const description = QueryCheck.firstOutside([r(1, `a\u001b[2J${long}`, "m", "s\nb")], query(0, 9, [to("sub1")]))!
      .description
    expect([...description].every((c) => c.charCodeAt(0) >= 0x20)).toBe(true)
    expect(description.length).toBeLessThan(250)
  })

  it("excerpt: the JSON of the record outside, as the error quotes it", () => {
    const records = [r(1, "a"), r(7, "b")]
    const outside = QueryCheck.firstOutside(records, query(0, 5))!
    expect(outside.description).toContain(`record "b" at 1970-01-01T00:00:00.007Z is outside the query's window`)
    expect(QueryCheck.excerpt(records, outside)).toBe(JSON.stringify(records[1]))
    expect(QueryCheck.firstOutside([r(1, "a")], query(0, 5))).toBeUndefined()
  })

  it("ofPage: the window the page query gave (bounds not given are open), its page, the kind's filters", () => {
    const kind = {
      endpoint: { maxLimit: 500 },
      time: (x: R) => x.t,
      key: (x: R) => x.id,
      recordFilters: () => [to("sub1")]
    }
    const { query: q, request } = QueryCheck.ofPage("transferHistory", { startTime: 5, page: 3 }, kind)
    expect([q.start, q.end, q.limit, q.filters.length]).toEqual([5, Infinity, 500, 1])
    expect(request).toEqual({ endpoint: "transferHistory", startTime: 5, page: 3 })
    expect(QueryCheck.ofPage("transferHistory", { limit: 20 }, kind).query.limit).toBe(20)
  })

  it("an answer with more records than the page may hold: refused, whatever the records", () => {
    const page = [r(1, "a"), r(2, "b"), r(3, "c")]
    expect(QueryCheck.firstOutside(page, query(0, 5, [], 3))).toBeUndefined()
    expect(QueryCheck.firstOutside(page, query(0, 5, [], 2))).toEqual({
      index: 2,
      description: "the answer holds 3 records, more than the 2 a page of this query may hold"
    })
  })

  prop(
    "property: undefined exactly when every record is inside the window and matches every filter",
    {
      records: fc.array(
        fc.record({
          t: fc.integer({ min: 0, max: 20 }),
          id: fc.constantFrom("a", "b"),
          from: fc.constantFrom("", "m", "n"),
          to: fc.constantFrom("", "s", "u")
        }),
        { maxLength: 20 }
      ),
      start: fc.integer({ min: 0, max: 10 }),
      width: fc.integer({ min: 0, max: 15 }),
      toValue: fc.constantFrom("s", "u")
    },
    ({ records, start, toValue, width }) => {
      const end = start + width
      const outside = QueryCheck.firstOutside(records, query(start, end, [from(undefined), to(toValue)]))
      const named = records.map((x) => x.from).filter((f) => f !== "")
      const inside = records.every((x) => x.t >= start && x.t <= end && (x.to === "" || x.to === toValue)) &&
        new Set(named).size <= 1
      expect(outside === undefined).toBe(inside)
      // The first such record: the records before it pass the check on their own.
      if (outside !== undefined) {
        expect(
          QueryCheck.firstOutside(records.slice(0, outside.index), query(start, end, [from(undefined), to(toValue)]))
        )
          .toBeUndefined()
      }
    },
    { fastCheck: { numRuns: 300 } }
  )
})
