import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Prng from "../../src/random/Prng.js"
import * as ChangePoint from "../../src/walk/ChangePoint.js"
import { prop } from "../support/Property.js"

/** `n` record times at random in [lo, hi], ascending. */
const random = (next: Prng.Prng, n: number, lo: number, hi: number) =>
  Array.from({ length: n }, () => Prng.int(next, lo, hi)).sort((a, b) => a - b)

describe("ChangePoint: where the density changed inside a window", () => {
  it("nothing to split without records", () => {
    expect(ChangePoint.tail([], 0, 999)).toBeUndefined()
    expect(ChangePoint.tail([5], 5, 5)).toBeUndefined()
  })

  it("a quiet stretch then a burst: the tail is the burst, from its first record", () => {
    // 20 records over 990,000 ms, then 300 over the last 10,000 ms.
    const quiet = Array.from({ length: 20 }, (_, i) => i * 49_000)
    const burst = Array.from({ length: 300 }, (_, i) => 990_000 + i * 33)
    const change = ChangePoint.tail([...quiet, ...burst], 0, 999_999)!
    expect(change.start).toBe(990_000)
    expect(change.count).toBe(300)
    expect(change.density).toBeCloseTo(300 / 10_000, 6)
    expect(change.evidence).toBeGreaterThan(30)
  })

  it("a burst that ends inside the window: an empty tail after its last record", () => {
    const burst = Array.from({ length: 400 }, (_, i) => i * 10)
    const change = ChangePoint.tail(burst, 0, 99_999)!
    expect(change).toMatchObject({ start: 3_991, count: 0, density: 0 })
    expect(change.evidence).toBeGreaterThan(30)
  })

  it("records that share a millisecond are never split", () => {
    const change = ChangePoint.tail([0, 10, 10, 10, 10, 500], 0, 999)!
    expect([0, 1, 10, 11, 500, 501]).toContain(change.start)
  })

  prop(
    "property: a page of one density, evenly spaced or at random, shows no change with evidence near 30",
    {
      seed: fc.integer(),
      n: fc.integer({ min: 1, max: 500 }),
      span: fc.integer({ min: 1_000, max: 1e9 }),
      even: fc.boolean()
    },
    ({ even, n, seed, span }) => {
      const times = even
        ? Array.from({ length: n }, (_, i) => Math.floor((i + 0.5) * span / n))
        : random(Prng.mulberry32(seed), n, 0, span - 1)
      const change = ChangePoint.tail(times, 0, span - 1)
      expect(change?.evidence ?? 0).toBeLessThan(20)
    },
    { fastCheck: { numRuns: 300 } }
  )

  prop(
    "property: a burst 100x denser than the quiet stretch before it is found, and its density measured",
    {
      seed: fc.integer(),
      quiet: fc.integer({ min: 0, max: 50 }),
      burst: fc.integer({ min: 30, max: 450 }),
      ratio: fc.integer({ min: 100, max: 10_000 })
    },
    ({ burst, quiet, ratio, seed }) => {
      const next = Prng.mulberry32(seed)
      // The quiet stretch holds `quiet` records at 1 per 10,000 ms, the burst `ratio` times denser.
      const quietSpan = Math.max(1, quiet) * 10_000
      const burstSpan = Math.max(1, Math.round(burst * 10_000 / ratio))
      const times = [
        ...random(next, quiet, 0, quietSpan - 1),
        ...random(next, burst, quietSpan, quietSpan + burstSpan - 1)
      ]
      const change = ChangePoint.tail(times, 0, quietSpan + burstSpan - 1)!
      // The split lies close to where the burst starts: its tail holds nearly all of the burst's records
      // (and at most a quiet record or two that happen to lie just before it).
      expect(change.count).toBeLessThanOrEqual(burst + 2)
      expect(change.count).toBeGreaterThanOrEqual(burst * 0.8)
      expect(change.density).toBeGreaterThan(burst / burstSpan / 2)
    },
    { fastCheck: { numRuns: 300 } }
  )
})
