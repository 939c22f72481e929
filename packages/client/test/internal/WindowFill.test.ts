import { describe, expect, it } from "@effect/vitest"
import * as WindowFill from "../../src/internal/WindowFill.js"

// Feeds `n` windows: each sized to hold `fill * limit` records (as the walk does), holding what `count` says.
const run = (limit: number, n: number, count: (aim: number, i: number) => number) => {
  let state = WindowFill.initial(limit)
  let overflows = 0
  for (let i = 0; i < n; i++) {
    const aim = WindowFill.fill(state) * limit
    const c = count(aim, i)
    const full = c >= limit
    if (full) overflows++
    state = WindowFill.observe(state, aim, Math.min(c, limit), full, limit)
  }
  return { fill: WindowFill.fill(state), overflows }
}

// A deterministic Poisson sampler (Knuth for small means, normal approximation above).
const poisson = (seed: number) => {
  let s = seed
  const uniform = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return (s + 0.5) / 2 ** 31
  }
  return (mean: number) => {
    const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
    return Math.max(0, Math.round(mean + z * Math.sqrt(mean)))
  }
}

describe("WindowFill: how full the walk aims its pages", () => {
  it("starts at about 90 % of the page", () => {
    expect(WindowFill.fill(WindowFill.initial(500))).toBeCloseTo(0.9, 1)
  })

  it("a regular history (counts as predicted) is read with pages up to 99 % full, never overflowing", () => {
    const r = run(500, 50, (aim) => Math.round(aim))
    expect(r.fill).toBeGreaterThan(0.98)
    expect(r.fill).toBeLessThanOrEqual(0.99)
    expect(r.overflows).toBe(0)
  })

  it("a random (Poisson) history keeps about 1 overflow in 100 windows", () => {
    const sample = poisson(42)
    const r = run(500, 2000, (aim) => sample(aim))
    expect(r.fill).toBeGreaterThan(0.85)
    expect(r.fill).toBeLessThan(0.95)
    expect(r.overflows).toBeLessThan(2000 * 0.03)
  })

  it("overflows and wild counts pull the aim down, to no less than half a page", () => {
    const bursty = run(500, 200, (aim, i) => (i % 3 === 0 ? aim * 3 : aim / 3))
    expect(bursty.fill).toBe(0.5)
    const overflowing = run(500, 5, () => 500)
    expect(overflowing.fill).toBeLessThan(0.8)
  })

  it("ignores windows that were not sized from a density", () => {
    const state = WindowFill.initial(500)
    expect(WindowFill.observe(state, 0, 10, false, 500)).toBe(state)
  })
})
