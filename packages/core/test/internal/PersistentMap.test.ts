import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PersistentMap from "../../src/internal/PersistentMap.js"
import { prop } from "../support/Property.js"

/** The entries in key order, checking on the way that every node is an AVL node of the right size. */
const entries = <V>(map: PersistentMap.PersistentMap<V>): Array<readonly [string, V]> => {
  const out: Array<readonly [string, V]> = []
  const visit = (at: PersistentMap.PersistentMap<V>): number => {
    if (at === undefined) return 0
    const left = visit(at.left)
    out.push([at.key, at.value])
    const right = visit(at.right)
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1)
    expect(at.height).toBe(1 + Math.max(left, right))
    expect(at.size).toBe(PersistentMap.size(at.left) + 1 + PersistentMap.size(at.right))
    return at.height
  }
  visit(map)
  return out
}

type Op = { readonly op: "set"; readonly key: string; readonly value: number } | {
  readonly op: "filter"
  readonly below: number
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("set" as const), key: fc.string({ maxLength: 3 }), value: fc.nat(99) })
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("filter" as const), below: fc.nat(99) }) }
)

describe("PersistentMap: a persistent AVL map of text keys", () => {
  it("sorted ascending keys stay balanced: height about log2 of the size", () => {
    let map: PersistentMap.PersistentMap<number> = PersistentMap.empty
    for (let i = 0; i < 1000; i++) map = PersistentMap.set(map, String(i).padStart(4, "0"), i)
    expect(PersistentMap.size(map)).toBe(1000)
    expect(map!.height).toBeLessThanOrEqual(Math.ceil(1.45 * Math.log2(1002)))
    expect(PersistentMap.get(map, "0500")).toBe(500)
    expect(PersistentMap.get(map, "x")).toBeUndefined()
  })

  it("filter keeping everything returns the same map", () => {
    const map = PersistentMap.set(PersistentMap.set(PersistentMap.empty, "a", 1), "b", 2)
    expect(PersistentMap.filter(map, () => true)).toBe(map)
  })

  prop(
    "property: the same entries as a Map, balanced, and every earlier map unchanged",
    { ops: fc.array(opArb, { maxLength: 80 }) },
    ({ ops }) => {
      const model = new Map<string, number>()
      let map: PersistentMap.PersistentMap<number> = PersistentMap.empty
      const history: Array<readonly [PersistentMap.PersistentMap<number>, Array<readonly [string, number]>]> = []
      for (const op of ops) {
        if (op.op === "set") {
          model.set(op.key, op.value)
          map = PersistentMap.set(map, op.key, op.value)
        } else {
          for (const [k, v] of model) if (v >= op.below) model.delete(k)
          map = PersistentMap.filter(map, (v) => v < op.below)
        }
        const expected = [...model].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
        expect(entries(map)).toEqual(expected)
        expect(PersistentMap.size(map)).toBe(model.size)
        for (const [k, v] of model) expect(PersistentMap.get(map, k)).toBe(v)
        history.push([map, expected])
      }
      for (const [earlier, expected] of history) expect(entries(earlier)).toEqual(expected)
    }
  )
})
