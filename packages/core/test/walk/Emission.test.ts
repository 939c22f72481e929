import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Boundary from "../../src/walk/Boundary.js"
import type { Change } from "../../src/walk/Checkpoint.js"
import * as Emission from "../../src/walk/Emission.js"
import * as Settlement from "../../src/walk/Settlement.js"
import { prop } from "../support/Property.js"

interface R {
  readonly id: string
  readonly t: number
  readonly status: string
}

const r = (t: number, id: string, status = "A"): R => ({ id, t, status })

const config = (overrides: Partial<Emission.Config<R>> = {}): Emission.Config<R> => ({
  time: (x) => x.t,
  key: (x) => x.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  fingerprint: (x) => x.status,
  until: 1_000,
  settlement: undefined,
  resumedAt: Number.NEGATIVE_INFINITY,
  ...overrides
})

const window = (start: number, end: number, records: ReadonlyArray<R>, mode: "walk" | "poll" = "walk") =>
  ({ _tag: "Window", start, end, records, mode }) as const

const change = (kind: Change<R>["kind"], record: R, checkpoint: Boundary.Boundary): Change<R> => ({
  kind,
  record,
  checkpoint
})

/** Folds events, collecting every element. */
const fold = <E>(
  step: (s: Emission.State, e: Emission.Event<R>) => readonly [Emission.State, ReadonlyArray<E>],
  events: ReadonlyArray<Emission.Event<R>>,
  state = Emission.initial(Boundary.start(0, undefined))
) => {
  const chunks: Array<ReadonlyArray<E>> = []
  for (const event of events) {
    const [next, chunk] = step(state, event)
    state = next
    chunks.push(chunk)
  }
  return { state, chunks, out: chunks.flat() }
}

describe("Emission: what the walk emits for what it read", () => {
  it("records: a window's records ascending; a release is an empty chunk; a re-read emits nothing new", () => {
    const step = Emission.records(config())
    const page = [r(20, "b"), r(10, "a")]
    const { chunks, state } = fold(step, [window(0, 99, page), Emission.release, window(20, 20, [r(20, "b")])])
    expect(chunks).toEqual([[r(10, "a"), r(20, "b")], [], []])
    expect(state.boundary).toEqual({ time: 20, ids: ["b"] })
  })

  it("records: the usual window (in order, all new) is emitted as the page itself", () => {
    const page = [r(10, "a"), r(20, "b")]
    const [, chunk] = Emission.records(config())(Emission.initial(Boundary.start(0, undefined)), window(0, 99, page))
    expect(chunk).toBe(page)
  })

  it("changes: each record new, with the checkpoint after it", () => {
    const { out, state } = fold(Emission.changes(config(), change), [
      window(0, 99, [r(10, "a"), r(10, "b"), r(30, "c")])
    ])
    expect(out).toEqual([
      change("new", r(10, "a"), { time: 10, ids: ["a"] }),
      change("new", r(10, "b"), { time: 10, ids: ["a", "b"] }),
      change("new", r(30, "c"), { time: 30, ids: ["c"] })
    ])
    expect(state.boundary).toBe(out[2]!.checkpoint)
  })

  it("follow: the walk remembers the settlement window; polls emit what is new or changed", () => {
    const step = Emission.changes(config({ until: 1_000, settlement: 100 }), change)
    const walked = fold(step, [window(0, 1_000, [r(850, "old"), r(950, "p", "PENDING"), r(990, "q")])])
    // Only the records within the settlement window (after 900) are remembered.
    expect(Settlement.size(walked.state.memory)).toBe(2)
    const polled = fold(step, [
      { _tag: "Settled", until: 1_000 },
      window(901, 1_500, [r(950, "p", "SUCCESS"), r(990, "q"), r(1_200, "n")], "poll")
    ], walked.state)
    expect(polled.out).toEqual([
      change("update", r(950, "p", "SUCCESS"), { time: 990, ids: ["q"] }),
      change("new", r(1_200, "n"), { time: 1_200, ids: ["n"] })
    ])
    // Nothing changed since: the next poll emits nothing.
    const again = fold(step, [
      { _tag: "Settled", until: 1_250 },
      window(1_151, 1_600, [r(1_200, "n")], "poll")
    ], polled.state)
    expect(again.out).toEqual([])
  })

  it("follow after a resume: an unknown record at or before the checkpoint is an update", () => {
    const step = Emission.changes(config({ until: 1_000, settlement: 100, resumedAt: 950 }), change)
    const start = Emission.initial(Boundary.start(0, { time: 950, ids: ["x"] }))
    const { out } = fold(step, [window(901, 1_000, [r(940, "y"), r(950, "x"), r(960, "z")], "poll")], start)
    expect(out.map((c) => `${c.kind}:${c.record.id}`)).toEqual(["update:y", "update:x", "new:z"])
  })

  it("settle forgets what left the settlement window", () => {
    const step = Emission.changes(config({ until: 1_000, settlement: 100 }), change)
    const walked = fold(step, [window(0, 1_000, [r(950, "p"), r(990, "q")])])
    const settled = fold(step, [{ _tag: "Settled", until: 1_060 }], walked.state)
    expect(settled.out).toEqual([])
    // "p" (950 ≤ 960) is forgotten, "q" is not.
    const polled = fold(step, [window(961, 1_100, [r(990, "q", "B")], "poll")], settled.state)
    expect(polled.out.map((c) => `${c.kind}:${c.record.id}`)).toEqual(["update:q"])
  })

  /** Windows of a walk: disjoint, ascending, each in a random order with repeats and re-read records. */
  const walkArb = fc.array(
    fc.array(fc.record({ dt: fc.integer({ min: 0, max: 9 }), id: fc.integer({ min: 0, max: 5 }) }), {
      maxLength: 12
    }),
    { maxLength: 12 }
  ).chain((windows) =>
    fc.tuple(fc.constant(windows), fc.array(fc.boolean(), { minLength: windows.length, maxLength: windows.length }))
  ).map(([windows, reversed]) =>
    windows.map((records, i) => {
      const page = records.map(({ dt, id }) => r(i * 10 + dt, `${i}-${id}`))
      return window(i * 10, i * 10 + 9, reversed[i] ? page.reverse() : page)
    })
  )

  prop(
    "property: the records fold and the change fold emit the same records, ascending, once; the last checkpoint is the boundary",
    { windows: walkArb, settlement: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }) },
    ({ settlement, windows }) => {
      const cfg = config({ until: 200, settlement })
      const plain = fold(Emission.records(cfg), windows.flatMap((w) => [w, Emission.release]))
      const changes = fold(Emission.changes(cfg, change), windows)
      expect(changes.out.map((c) => c.record)).toEqual(plain.out)
      expect(changes.out.every((c) => c.kind === "new")).toBe(true)
      const keys = plain.out.map((x) => `${x.t}/${x.id}`)
      expect(new Set(keys).size).toBe(keys.length)
      for (let i = 1; i < plain.out.length; i++) expect(cfg.compare(plain.out[i - 1]!, plain.out[i]!)).toBeLessThan(0)
      expect(plain.state.boundary).toEqual(changes.state.boundary)
      if (changes.out.length > 0) expect(changes.out[changes.out.length - 1]!.checkpoint).toBe(changes.state.boundary)
      // Every checkpoint names all the ids emitted at its millisecond so far.
      for (const [i, c] of changes.out.entries()) {
        const sameMs = changes.out.slice(0, i + 1).filter((d) => d.record.t === c.record.t).map((d) => d.record.id)
        expect(c.checkpoint).toEqual({ time: c.record.t, ids: sameMs })
      }
    },
    { fastCheck: { numRuns: 200 } }
  )
})
