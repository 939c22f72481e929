import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as TransferPlan from "../../src/plan/TransferPlan.js"
import type * as SubAccount from "../../src/record/SubAccount.js"

const types = ["SPOT", "FUTURES"]

// The stream id the command line has stored checkpoints under since 0.1.0: databases hold these.
const storedId = (fromType: string, toType: string, fromAccount?: string, toAccount?: string) =>
  JSON.stringify(["transfers", fromType, toType, fromAccount ?? null, toAccount ?? null])

const listed = (subAccount: string, timestamp: number | undefined): SubAccount.SubAccount => ({
  subAccount,
  note: "",
  timestamp
})

describe("TransferPlan", () => {
  it("keys are the command line's stored ids, byte for byte", () => {
    expect(TransferPlan.key({ fromAccountType: "SPOT", toAccountType: "SPOT" })).toBe(
      "[\"transfers\",\"SPOT\",\"SPOT\",null,null]"
    )
    expect(TransferPlan.key({ fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" }))
      .toBe("[\"transfers\",\"SPOT\",\"FUTURES\",null,\"sub001@broker.test\"]")
    expect(TransferPlan.key({ fromAccountType: "FUTURES", toAccountType: "SPOT", fromAccount: "a\"b\\c" })).toBe(
      storedId("FUTURES", "SPOT", "a\"b\\c")
    )
  })

  it("plans master→master, master→sub and sub→master for every ordered pair of account types", () => {
    const planned = TransferPlan.ofSubAccounts(["a@x", "b@x"], types)
    expect(planned.length).toBe((1 + 2 * 2) * 4)
    expect(planned.slice(0, 4).map((s) => s.key)).toEqual([
      storedId("SPOT", "SPOT"),
      storedId("SPOT", "FUTURES"),
      storedId("FUTURES", "SPOT"),
      storedId("FUTURES", "FUTURES")
    ])
    expect(planned.filter((s) => s.query.toAccount === "b@x").map((s) => s.query)).toEqual([
      { fromAccountType: "SPOT", toAccountType: "SPOT", toAccount: "b@x" },
      { fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "b@x" },
      { fromAccountType: "FUTURES", toAccountType: "SPOT", toAccount: "b@x" },
      { fromAccountType: "FUTURES", toAccountType: "FUTURES", toAccount: "b@x" }
    ])
    // The master's own query names no account: the key's nulls, not "undefined" fields.
    expect(Object.keys(planned[0]!.query)).toEqual(["fromAccountType", "toAccountType"])
  })

  it("starts a sub-account's streams at its creation time; the master's own and plain names have none", () => {
    const planned = TransferPlan.ofSubAccounts([listed("a@x", 1_700_000_000_000), "b@x"], ["SPOT"])
    expect(planned.map((s) => [s.key, s.startsAt])).toEqual([
      [storedId("SPOT", "SPOT"), undefined],
      [storedId("SPOT", "SPOT", undefined, "a@x"), 1_700_000_000_000],
      [storedId("SPOT", "SPOT", "a@x"), 1_700_000_000_000],
      [storedId("SPOT", "SPOT", undefined, "b@x"), undefined],
      [storedId("SPOT", "SPOT", "b@x"), undefined]
    ])
  })

  it("a sub→sub pair starts at the later creation time of the two", () => {
    const a = listed("a@x", 1_000)
    const b = listed("b@x", 5_000)
    const planned = TransferPlan.streams(
      [
        { fromAccount: a, toAccount: b, fromAccountType: "SPOT", toAccountType: "SPOT" },
        { fromAccount: b, toAccount: "c@x", fromAccountType: "SPOT", toAccountType: "SPOT" },
        { fromAccount: listed("d@x", undefined), toAccount: a, fromAccountType: "SPOT", toAccountType: "SPOT" }
      ],
      types
    )
    expect(planned.map((s) => [s.key, s.startsAt])).toEqual([
      [storedId("SPOT", "SPOT", "a@x", "b@x"), 5_000],
      [storedId("SPOT", "SPOT", "b@x", "c@x"), 5_000],
      [storedId("SPOT", "SPOT", "d@x", "a@x"), 1_000]
    ])
  })

  it("a stream planned twice is one, at its first place, starting at the earlier of its starts", () => {
    const planned = TransferPlan.streams(
      [
        { fromAccount: undefined, toAccount: listed("a@x", 5_000) },
        { fromAccount: undefined, toAccount: listed("a@x", 3_000), fromAccountType: "SPOT", toAccountType: "SPOT" },
        { fromAccount: undefined, toAccount: "a@x", fromAccountType: "FUTURES", toAccountType: "SPOT" }
      ],
      types
    )
    expect(planned.map((s) => [s.key, s.startsAt])).toEqual([
      [storedId("SPOT", "SPOT", undefined, "a@x"), 3_000],
      [storedId("SPOT", "FUTURES", undefined, "a@x"), 5_000],
      [storedId("FUTURES", "SPOT", undefined, "a@x"), undefined],
      [storedId("FUTURES", "FUTURES", undefined, "a@x"), 5_000]
    ])
  })

  it("withListed gives named pairs the creation times of the list", () => {
    const pairs = TransferPlan.withListed(
      [{ fromAccount: "a@x", toAccount: "b@x" }, { fromAccount: undefined, toAccount: "z@x" }],
      [listed("b@x", 7_000), listed("a@x", 2_000)]
    )
    expect(TransferPlan.streams(pairs, ["SPOT"]).map((s) => s.startsAt)).toEqual([7_000, undefined])
  })

  it("property: one stream per distinct key, keys as stored, counts as the plan says, starts never before creation", () => {
    const name = fc.constantFrom("a@x", "b@x", "c@x", "d@x", "e@x")
    const account = fc.oneof(
      name,
      fc.record({
        subAccount: name,
        note: fc.constant(""),
        timestamp: fc.option(fc.nat({ max: 1_000_000 }), { nil: undefined })
      })
    )
    const typeList = fc.uniqueArray(fc.constantFrom("SPOT", "FUTURES", "FUTURE", "ISOLATED_MARGIN"), {
      minLength: 1,
      maxLength: 4
    })
    fc.assert(
      fc.property(fc.array(account, { maxLength: 12 }), typeList, (accounts, accountTypes) => {
        const planned = TransferPlan.ofSubAccounts(accounts, accountTypes)
        const keys = planned.map((s) => s.key)
        expect(new Set(keys).size).toBe(keys.length)
        const distinct = new Set(accounts.map(TransferPlan.nameOf)).size
        expect(planned.length).toBe((1 + 2 * distinct) * accountTypes.length ** 2)
        for (const s of planned) {
          const q = s.query
          expect(s.key).toBe(storedId(q.fromAccountType, q.toAccountType, q.fromAccount, q.toAccount))
          const sub = q.fromAccount ?? q.toAccount
          const times = accounts.filter((a) => TransferPlan.nameOf(a) === sub).map(TransferPlan.createdAt)
          // The earliest mention wins; a plain name or a record without a time means no start.
          const expected = sub === undefined || times.some((t) => t === undefined)
            ? undefined
            : Math.min(...(times as Array<number>))
          expect(s.startsAt).toBe(expected)
        }
      })
    )
  })
})
