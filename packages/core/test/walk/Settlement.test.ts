import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Settlement from "../../src/walk/Settlement.js"
import { prop } from "../support/Property.js"

const seen = (key: string, time: number, fingerprint: string) => ({ key, time, fingerprint })

describe("Settlement: the records of the settlement window, new or updated", () => {
  it("a record not seen before is new; seen the same, nothing; seen changed, an update", () => {
    const [m1, first] = Settlement.observe(Settlement.empty, seen("a", 10, "PENDING"), true, Number.NEGATIVE_INFINITY)
    expect(first).toBe("new")
    const [m2, again] = Settlement.observe(m1, seen("a", 10, "PENDING"), false, Number.NEGATIVE_INFINITY)
    expect(again).toBeUndefined()
    const [m3, changed] = Settlement.observe(m2, seen("a", 10, "SUCCESS"), false, Number.NEGATIVE_INFINITY)
    expect(changed).toBe("update")
    const [, settled] = Settlement.observe(m3, seen("a", 10, "SUCCESS"), false, Number.NEGATIVE_INFINITY)
    expect(settled).toBeUndefined()
    // Values: the memory before is unchanged.
    expect(Settlement.size(Settlement.empty)).toBe(0)
    expect(Settlement.size(m1)).toBe(1)
  })

  it("after a resume, an unknown record at or before the checkpoint is an update (the stored run may have sent it)", () => {
    expect(Settlement.observe(Settlement.empty, seen("a", 100, "x"), false, 100)[1]).toBe("update")
    expect(Settlement.observe(Settlement.empty, seen("a", 101, "x"), false, 100)[1]).toBe("new")
    // Past the boundary (not emitted by anyone yet): new.
    expect(Settlement.observe(Settlement.empty, seen("a", 100, "x"), true, 100)[1]).toBe("new")
  })

  it("a remembered record is not new; settle forgets what is at or before the horizon", () => {
    const m = Settlement.remember(Settlement.remember(Settlement.empty, "a", 10, "x"), "b", 20, "y")
    expect(Settlement.observe(m, seen("a", 10, "x"), false, Number.NEGATIVE_INFINITY)[1]).toBeUndefined()
    const settled = Settlement.settle(m, 10)
    expect(Settlement.size(settled)).toBe(1)
    // Forgotten: as if never seen (a poll does not read that far back again).
    expect(Settlement.observe(settled, seen("a", 10, "x"), false, Number.NEGATIVE_INFINITY)[1]).toBe("new")
    expect(Settlement.observe(settled, seen("b", 20, "y"), false, Number.NEGATIVE_INFINITY)[1]).toBeUndefined()
  })

  type Op =
    | {
      readonly op: "observe"
      readonly key: string
      readonly time: number
      readonly fp: string
      readonly past: boolean
    }
    | { readonly op: "remember"; readonly key: string; readonly time: number; readonly fp: string }
    | { readonly op: "settle"; readonly horizon: number }

  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      op: fc.constant("observe" as const),
      key: fc.constantFrom("a", "b", "c", "d"),
      time: fc.integer({ min: 0, max: 20 }),
      fp: fc.constantFrom("x", "y"),
      past: fc.boolean()
    }),
    fc.record({
      op: fc.constant("remember" as const),
      key: fc.constantFrom("a", "b", "c", "d"),
      time: fc.integer({ min: 0, max: 20 }),
      fp: fc.constantFrom("x", "y")
    }),
    fc.record({ op: fc.constant("settle" as const), horizon: fc.integer({ min: 0, max: 20 }) })
  )

  prop(
    "property: the same answers as a plain map of key → (time, fingerprint)",
    { ops: fc.array(opArb, { maxLength: 60 }), resumedAt: fc.integer({ min: -1, max: 20 }) },
    ({ ops, resumedAt }) => {
      const model = new Map<string, { time: number; fp: string }>()
      let memory = Settlement.empty
      const history: Array<readonly [Settlement.Memory, string | undefined]> = []
      for (const op of ops) {
        const at = memory
        if (op.op === "remember") {
          model.set(op.key, { time: op.time, fp: op.fp })
          memory = Settlement.remember(memory, op.key, op.time, op.fp)
        } else if (op.op === "settle") {
          for (const [k, v] of model) if (v.time <= op.horizon) model.delete(k)
          memory = Settlement.settle(memory, op.horizon)
        } else {
          const before = model.get(op.key)
          model.set(op.key, { time: op.time, fp: op.fp })
          const expected = before === undefined
            ? op.past || op.time > resumedAt ? "new" : "update"
            : before.fp === op.fp
            ? undefined
            : "update"
          const [next, kind] = Settlement.observe(memory, seen(op.key, op.time, op.fp), op.past, resumedAt)
          expect(kind).toBe(expected)
          history.push([at, kind])
          memory = next
        }
        expect(Settlement.size(memory)).toBe(model.size)
      }
      // Every earlier memory is a value: asked again, after everything that followed, it answers the same.
      const observed = ops.filter((op) => op.op === "observe")
      history.forEach(([at, kind], i) => {
        const op = observed[i]!
        expect(Settlement.observe(at, seen(op.key, op.time, op.fp), op.past, resumedAt)[1]).toBe(kind)
      })
    },
    { fastCheck: { numRuns: 300 } }
  )
})
