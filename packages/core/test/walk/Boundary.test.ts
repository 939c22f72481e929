import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Boundary from "../../src/walk/Boundary.js"
import { prop } from "../support/Property.js"

interface R {
  readonly id: string
  readonly t: number
}

const time = (r: R) => r.t
const key = (r: R) => r.id
const r = (t: number, id: string): R => ({ id, t })

/** Emits a list batch by batch (fresh, then after), as the records stream does. */
const emitBatches = (boundary: Boundary.Boundary, batches: ReadonlyArray<ReadonlyArray<R>>) => {
  const out: Array<R> = []
  for (const batch of batches) {
    const fresh = Boundary.fresh(boundary, batch, time, key)
    out.push(...fresh)
    boundary = Boundary.after(boundary, fresh, time, key)
  }
  return { boundary, out }
}

/** Emits a list record by record (isPast, then advance), as the change stream does; each checkpoint kept. */
const emitEach = (boundary: Boundary.Boundary, list: ReadonlyArray<R>) => {
  const out: Array<{ record: R; checkpoint: Boundary.Boundary }> = []
  for (const record of list) {
    if (!Boundary.isPast(boundary, record.t, record.id)) continue
    boundary = Boundary.advance(boundary, record.t, record.id)
    out.push({ record, checkpoint: boundary })
  }
  return { boundary, out }
}

/** An ascending list without repeats: several records per millisecond (more than 16 in some). */
const listArb = fc.uniqueArray(
  fc.record({ t: fc.integer({ min: 0, max: 30 }), id: fc.integer({ min: 0, max: 40 }).map(String) }),
  { selector: (x) => `${x.t}/${x.id}`, maxLength: 300 }
).map((xs) => xs.sort((a, b) => a.t - b.t || Number(a.id) - Number(b.id)))

describe("Boundary: what was emitted, as a checkpoint", () => {
  it("starts at since, or at the checkpoint resumed from (its ids once)", () => {
    expect(Boundary.start(100, undefined)).toEqual({ time: 100, ids: [] })
    expect(Boundary.start(100, { time: 150, ids: ["a", "b", "a"] })).toEqual({ time: 150, ids: ["a", "b"] })
    // A checkpoint before `since`: nothing before `since` is read, its ids do not matter.
    expect(Boundary.start(100, { time: 50, ids: ["a"] })).toEqual({ time: 100, ids: [] })
  })

  it("a record is past the boundary when later, or at its millisecond and not emitted", () => {
    const b = { time: 10, ids: ["a"] }
    expect(Boundary.isPast(b, 11, "a")).toBe(true)
    expect(Boundary.isPast(b, 10, "b")).toBe(true)
    expect(Boundary.isPast(b, 10, "a")).toBe(false)
    expect(Boundary.isPast(b, 9, "z")).toBe(false)
  })

  it("advance: a later millisecond starts a new list; a tie makes a new, longer list", () => {
    const b = { time: 10, ids: ["a"] }
    expect(Boundary.advance(b, 12, "c")).toEqual({ time: 12, ids: ["c"] })
    const tied = Boundary.advance(b, 10, "b")
    expect(tied).toEqual({ time: 10, ids: ["a", "b"] })
    // The checkpoint handed out before is unchanged.
    expect(b.ids).toEqual(["a"])
  })

  it("fresh returns the list itself when all of it is past the boundary", () => {
    const list = [r(11, "a"), r(12, "b")]
    expect(Boundary.fresh({ time: 10, ids: ["z"] }, list, time, key)).toBe(list)
    expect(Boundary.fresh({ time: 11, ids: ["a"] }, [r(10, "x"), ...list, r(12, "c")], time, key)).toEqual([
      r(12, "b"),
      r(12, "c")
    ])
  })

  it("after: the boundary moves to the last millisecond emitted, with every id emitted at it", () => {
    const b = { time: 12, ids: ["a"] }
    expect(Boundary.after(b, [], time, key)).toBe(b)
    expect(Boundary.after(b, [r(12, "b"), r(12, "c")], time, key)).toEqual({ time: 12, ids: ["a", "b", "c"] })
    expect(Boundary.after(b, [r(12, "b"), r(13, "c"), r(13, "d")], time, key)).toEqual({ time: 13, ids: ["c", "d"] })
  })

  it("a millisecond with many records: every one is recognised", () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => `id${i}`)
    const b = { time: 5, ids }
    expect(ids.every((id) => !Boundary.isPast(b, 5, id))).toBe(true)
    expect(Boundary.isPast(b, 5, "id1000")).toBe(true)
    expect(Boundary.fresh(b, [...ids, "new"].map((id) => r(5, id)), time, key)).toEqual([r(5, "new")])
  })

  prop(
    "property: batch by batch or record by record, any cut → each record once, in order, the same boundary",
    { list: listArb, cuts: fc.array(fc.nat(), { maxLength: 8 }), since: fc.integer({ min: 0, max: 5 }) },
    ({ cuts, list, since }) => {
      const inRange = list.filter((x) => x.t >= since)
      // Batches that overlap: each one repeats a stretch of the one before (a re-read millisecond).
      const points = [...new Set(cuts.map((c) => c % (list.length + 1)))].sort((a, b) => a - b)
      const batches: Array<ReadonlyArray<R>> = []
      let from = 0
      for (const p of [...points, list.length]) {
        batches.push(list.slice(Math.max(0, from - 3), p))
        from = p
      }
      const start = Boundary.start(since, undefined)
      const batched = emitBatches(start, batches)
      const each = emitEach(start, list)
      // `since` is the first millisecond read: records before it are never in a window.
      expect(batched.out).toEqual(list.filter((x) => x.t >= since))
      expect(each.out.map((x) => x.record)).toEqual(inRange)
      expect(batched.boundary).toEqual(each.boundary)
      // Resuming from any checkpoint and reading everything again emits exactly the rest.
      for (let i = 0; i < each.out.length; i += 7) {
        const resumed = Boundary.start(since, each.out[i]!.checkpoint)
        expect(emitBatches(resumed, [list]).out).toEqual(inRange.slice(i + 1))
      }
    },
    { fastCheck: { numRuns: 200 } }
  )
})
