import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Crowded from "../../src/walk/Crowded.js"
import { prop } from "../support/Property.js"

/**
 * The paging of one millisecond holding `records` records by a service that serves pages up to
 * `servedPages` (all of them when undefined), read `limit` at a time: the pages asked for and the end.
 */
const page = (records: number, servedPages: number | undefined, limit: number, maxPages: number) => {
  const serve = (n: number, size: number) =>
    servedPages !== undefined && n > servedPages ? 0 : Math.max(0, Math.min(size, records - (n - 1) * size))
  const asked: Array<string> = []
  let received = Math.min(limit, records)
  let [state, next] = Crowded.start(limit, maxPages)
  for (let i = 0; i < 10_000; i++) {
    if (next._tag === "Complete" || next._tag === "Incomplete") return { asked, next, received, state }
    asked.push(`${next.page}/${next.limit}`)
    const length = serve(next.page, next.limit)
    const first = (next.page - 1) * next.limit
    // Records at offsets not read before are new.
    const fresh = Math.max(0, first + length - received)
    received += fresh
    if (next._tag === "Page") [state, next] = Crowded.afterPage(state, length, fresh)
    else next = Crowded.afterProbe(state, next, length, fresh)
  }
  throw new Error("no end")
}

describe("Crowded: the pages of a crowded millisecond", () => {
  it("pages to the short page", () => {
    expect(page(12, undefined, 5, 20)).toMatchObject({
      asked: ["2/5", "3/5"],
      next: { _tag: "Complete" },
      received: 12
    })
  })

  it("an exact multiple of a page: the empty page, then one page of another size that holds the last records", () => {
    // 10 records: page 3 of 4 holds records 9 and 10 and nothing after them.
    expect(page(10, undefined, 5, 20)).toMatchObject({ asked: ["2/5", "3/5", "3/4"], next: { _tag: "Complete" } })
    // 1,000 records of 500: page 3 of 499 holds the last 2.
    expect(page(1_000, undefined, 500, 20)).toMatchObject({
      asked: ["2/500", "3/500", "3/499"],
      next: { _tag: "Complete" }
    })
  })

  it("a service that stops serving pages: EmptyPage, at the page that came back empty", () => {
    expect(page(1_200, 2, 500, 20)).toMatchObject({
      asked: ["2/500", "3/500", "3/499"],
      next: { _tag: "Incomplete", reason: "EmptyPage", page: 3 },
      state: { pages: 2 },
      received: 1_000
    })
  })

  it("more pages than maxPages: PageLimit, without reading past it", () => {
    expect(page(30, undefined, 5, 3)).toMatchObject({
      asked: ["2/5", "3/5"],
      next: { _tag: "Incomplete", reason: "PageLimit", page: 4 },
      state: { pages: 3 }
    })
    expect(Crowded.start(5, 1)[1]).toEqual({ _tag: "Incomplete", reason: "PageLimit", page: 2 })
  })

  it("a page that brings nothing new (a service that ignores page): NothingNew", () => {
    const [state] = Crowded.start(5, 20)
    expect(Crowded.afterPage(state, 5, 0)[1]).toEqual({ _tag: "Incomplete", reason: "NothingNew", page: 2 })
    expect(Crowded.afterPage(state, 2, 0)[1]).toEqual({ _tag: "Incomplete", reason: "NothingNew", page: 2 })
  })

  it("warning: the millisecond, what was received and why", () => {
    expect(Crowded.warning({ time: 0, received: 1_000, pages: 2, reason: "EmptyPage" })).toBe(
      "the service did not serve every record of the millisecond 1970-01-01T00:00:00.000Z (1000 records in 2 pages, " +
        `then page 3 came back empty); going on without the rest (onIncomplete "warn")`
    )
  })

  prop(
    "property: complete only with every record, and whenever every page is served within maxPages; never more pages than that",
    {
      records: fc.integer({ min: 1, max: 400 }),
      limit: fc.integer({ min: 1, max: 30 }),
      maxPages: fc.integer({ min: 1, max: 20 }),
      servedPages: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined })
    },
    ({ limit, maxPages, records, servedPages }) => {
      // The millisecond is crowded: page 1 came back full.
      fc.pre(records >= limit)
      const { asked, next, received } = page(records, servedPages, limit, maxPages)
      // Complete only with every record; always when every page is served and the limit allows the
      // pages up to the one that shows the end.
      if (next._tag === "Complete") expect(received).toBe(records)
      if (servedPages === undefined && Math.floor(records / limit) < maxPages) {
        expect(next).toEqual({ _tag: "Complete" })
      }
      if (servedPages !== undefined && servedPages < Math.ceil(records / limit)) expect(next._tag).toBe("Incomplete")
      // At most maxPages pages of the limit (page 1 was read before), and at most one of another size.
      expect(asked.filter((a) => a.endsWith(`/${limit}`)).length).toBeLessThanOrEqual(maxPages - 1)
      expect(asked.filter((a) => !a.endsWith(`/${limit}`)).length).toBeLessThanOrEqual(1)
    },
    { fastCheck: { numRuns: 500 } }
  )
})
