import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as SubAccountList from "../../src/query/SubAccountList.js"
import type * as SubAccount from "../../src/record/SubAccount.js"
import { prop } from "../support/Property.js"

const named = (...names: Array<string>): Array<SubAccount.SubAccount> =>
  names.map((subAccount) => ({ subAccount, note: "", timestamp: undefined }))

describe("SubAccountList.outside", () => {
  it("an answer longer than the page is outside at the first record past the limit", () => {
    expect(SubAccountList.outside(named("a", "b", "c"), { limit: 2, subAccount: undefined })).toEqual({
      index: 2,
      description: "the answer holds 3 sub-accounts, more than the 2 a page of this query may hold"
    })
  })

  it("a query naming one sub-account refuses any other, its name quoted safely and cut short", () => {
    const hostile = "x\u001b[2J" + "y".repeat(100)
    const found = SubAccountList.outside(named("a", hostile), { limit: 10, subAccount: "a" })
    expect(found?.index).toBe(1)
    expect(found?.description).toBe(
      `it lists sub-account ${JSON.stringify("x\uFFFD[2J" + "y".repeat(59) + "…")} where the query asked for "a" alone`
    )
    expect(SubAccountList.outside(named("a", "a"), { limit: 10, subAccount: "a" })).toBeUndefined()
  })
})

describe("SubAccountList.reader", () => {
  it("a short page ends the list; a full one goes on", () => {
    const list = SubAccountList.reader(2, 100)
    expect(list.read(named("a", "b"))).toEqual({ _tag: "Continue", fresh: named("a", "b") })
    expect(list.read(named("c"))).toEqual({ _tag: "Done", fresh: named("c") })
    expect([list.received(), list.pages()]).toEqual([3, 2])
  })

  it("a full page of names read already stops the list (NothingNew)", () => {
    const list = SubAccountList.reader(2, 100)
    list.read(named("a", "b"))
    expect(list.read(named("b", "a"))).toEqual({ _tag: "Stop", reason: "NothingNew" })
  })

  it("one name more than the bound stops the list (TooMany); the page after the bound's names fill stops it (PageLimit)", () => {
    const tooMany = SubAccountList.reader(3, 4)
    tooMany.read(named("a", "b", "c"))
    expect(tooMany.read(named("d", "e"))).toEqual({ _tag: "Stop", reason: "TooMany" })
    expect(tooMany.received()).toBe(4)
    // ⌊5 / 2⌋ + 1 = 3 full pages at most, whatever they repeat.
    const pageLimit = SubAccountList.reader(2, 5)
    expect(pageLimit.read(named("a", "b"))._tag).toBe("Continue")
    expect(pageLimit.read(named("a", "c"))._tag).toBe("Continue")
    expect(pageLimit.read(named("c", "d"))).toEqual({ _tag: "Stop", reason: "PageLimit" })
  })

  prop(
    "each name is given once, in the order read, never more than the bound, and the list ends at the first short page",
    [
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 12 }),
      fc.array(fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { maxLength: 4 }), { maxLength: 10 })
    ],
    ([limit, max, pages]) => {
      const list = SubAccountList.reader(limit, max)
      const given: Array<string> = []
      for (const page of pages.map((p) => named(...p.slice(0, limit)))) {
        const step = list.read(page)
        if (step._tag === "Stop") break
        given.push(...step.fresh.map((s) => s.subAccount))
        if (step._tag === "Done") {
          expect(page.length).toBeLessThan(limit)
          break
        }
      }
      expect(new Set(given).size).toBe(given.length)
      expect(given.length).toBeLessThanOrEqual(max)
      expect(list.received()).toBeGreaterThanOrEqual(given.length)
    }
  )
})
