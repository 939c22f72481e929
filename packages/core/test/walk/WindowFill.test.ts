import { describe, expect, it } from "vitest"
import * as Prng from "../../src/random/Prng.js"
import * as WindowFill from "../../src/walk/WindowFill.js"

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

// Complementary error function (Numerical Recipes erfcc, fractional error < 1.2e-7).
const erfc = (x: number): number => {
  const z = Math.abs(x)
  const t = 1 / (1 + z / 2)
  const r = t * Math.exp(
    -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
                      t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
  )
  return x >= 0 ? r : 2 - r
}

// A deterministic Poisson sampler (Knuth for small means, normal approximation above).
const poisson = (seed: number) => {
  const next = Prng.mulberry32(seed)
  // In (0, 1]: its logarithm is finite.
  const uniform = () => 1 - next()
  return (mean: number) => {
    const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
    return Math.max(0, Math.round(mean + z * Math.sqrt(mean)))
  }
}

describe("WindowFill: how full the walk aims its pages", () => {
  it("starts at about 90 % of the page", () => {
    expect(WindowFill.fill(WindowFill.initial(500))).toBeCloseTo(0.9, 1)
  })

  it("a regular history (counts as predicted) is read with pages 98 % full, never overflowing", () => {
    const r = run(500, 50, (aim) => Math.round(aim))
    expect(r.fill).toBe(0.98)
    expect(r.overflows).toBe(0)
  })

  it("the first windows weigh as much as the prior: a regular history reaches 98 % within 40 windows at limit 100", () => {
    // The prior is the scatter of a Poisson count (σ ≈ 0.1 at limit 100), which a regular history never shows.
    expect(run(100, 40, (aim) => Math.round(aim)).fill).toBe(0.98)
    expect(WindowFill.observe(WindowFill.initial(100), 90, 90, false, 100).seen).toBe(1)
  })

  it("a random (Poisson) history settles near 91 %, with few overflows", () => {
    const sample = poisson(42)
    const r = run(500, 2000, (aim) => sample(aim))
    expect(r.fill).toBeGreaterThan(0.87)
    expect(r.fill).toBeLessThan(0.94)
    expect(r.overflows).toBeLessThan(2000 * 0.05)
  })

  it("the fill is the one with the fewest expected requests per record", () => {
    // Cost of aiming at f with a spread sigma: (1 + P(overflow)) / f, checked against a fine grid.
    const tail = (z: number) => 0.5 * erfc(z / Math.SQRT2)
    const cost = (f: number, sigma: number) => (1 + tail(Math.log(1 / f) / sigma)) / f
    for (const sigma of [0.02, 0.05, 0.1, 0.2]) {
      const chosen = WindowFill.fill(WindowFill.withVariance(sigma * sigma))
      let best = Number.POSITIVE_INFINITY
      for (let f = 0.5; f <= 0.98; f += 0.001) best = Math.min(best, cost(f, sigma))
      expect(cost(chosen, sigma)).toBeLessThan(best * 1.005)
    }
    // A moderate spread lowers the aim; overflows pull it down after a run of good predictions.
    expect(WindowFill.fill(WindowFill.withVariance(0.1 ** 2))).toBeLessThan(0.9)
    const overflowing = run(500, 5, () => 500)
    expect(overflowing.fill).toBeLessThan(0.98)
  })

  it("ignores windows that were not sized from a density", () => {
    const state = WindowFill.initial(500)
    expect(WindowFill.observe(state, 0, 10, false, 500)).toBe(state)
  })
})
