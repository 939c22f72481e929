import * as Prng from "@broker-history/server/Prng"
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as AdaptiveRate from "../../src/internal/AdaptiveRate.js"

const settings = (bound: number, min = 1): AdaptiveRate.Settings => ({ bound, min, intervalMillis: 1000 })
const K = AdaptiveRate.regrowIntervals
const H = AdaptiveRate.holdIntervals

const refusal = (
  sentAt: number,
  at: number,
  sentBefore: number,
  pauseMillis = 0,
  acceptedMost = 0
): AdaptiveRate.Refusal => ({ sentAt, at, sentBefore, acceptedMost, pauseMillis })

/** Intervals after a cut at which the rate is back at `bound`, from the curve's definition. */
const backAtBound = (bound: number, ceiling: number) =>
  K + H + K * Math.cbrt((bound / ceiling - 1) / (1 - AdaptiveRate.cut))

/** A random history of refusals: times increasing, some sent before the previous cut. */
const history = (seed: number, bound: number, count: number) => {
  const next = Prng.mulberry32(seed)
  let state = AdaptiveRate.initial
  let now = 0
  const states: Array<{ readonly state: AdaptiveRate.State; readonly at: number }> = []
  for (let i = 0; i < count; i++) {
    now += Prng.int(next, 1, 20_000)
    const sentAt = now - Prng.int(next, 0, 3_000)
    state = AdaptiveRate.refused(settings(bound), state, refusal(sentAt, now, Prng.int(next, 0, 3 * bound)))
    states.push({ state, at: now })
  }
  return states
}

describe("AdaptiveRate", () => {
  it("before any refusal the rate is the bound", () => {
    for (const now of [0, 1, 1e9]) expect(AdaptiveRate.allowed(settings(40), AdaptiveRate.initial, now)).toBe(40)
  })

  it("a refusal cuts the rate below what was sent in the interval before it, then it grows back", () => {
    const s = settings(40)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20))
    expect(state.ceiling).toBe(20)
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBeCloseTo(20 * AdaptiveRate.cut)
    // Back at the level of the refusal after K intervals, held there H intervals, then probing beyond.
    expect(AdaptiveRate.allowed(s, state, 1_150 + K * 500)).toBeGreaterThan(19.5)
    expect(AdaptiveRate.allowed(s, state, 1_150 + K * 1000)).toBe(20)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (K + H) * 1000)).toBe(20)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (K + H + 1) * 1000)).toBeGreaterThan(20)
    // Then beyond it, up to the bound and no further.
    expect(AdaptiveRate.allowed(s, state, 1_150 + backAtBound(40, 20) * 1000 - 100)).toBeLessThan(40)
    expect(AdaptiveRate.allowed(s, state, 1_150 + backAtBound(40, 20) * 1000)).toBe(40)
    expect(AdaptiveRate.adapting(s, state, 1_150 + backAtBound(40, 20) * 1000)).toBe(false)
  })

  it("the rate sent, not the bound, is what is cut: a bound far above the service's limit", () => {
    const s = settings(80)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 21))
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBeCloseTo(21 * AdaptiveRate.cut)
  })

  it("a refusal after fewer requests than the service accepted before in one interval keeps that level", () => {
    // Requests bunched up on the way (a busy event loop): 16 sent in the interval, 20 seen accepted.
    const s = settings(20)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 16, 0, 20))
    expect(state.ceiling).toBe(20)
    expect(AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 16, 0, 12)).ceiling).toBe(16)
  })

  it("a refusal of an attempt sent before the last cut cuts nothing again; its pause still counts", () => {
    const s = settings(40)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20))
    expect(AdaptiveRate.refused(s, first, refusal(1_100, 1_250, 20))).toBe(first)
    const paused = AdaptiveRate.refused(s, first, refusal(1_100, 1_250, 20, 1_000))
    expect(paused).toEqual({ ...first, pausedUntil: 2_250 })
    // Sent after the cut: a second cut, from the rate allowed when it was sent.
    const second = AdaptiveRate.refused(s, first, refusal(1_200, 1_350, 30))
    expect(second.ceiling).toBeCloseTo(AdaptiveRate.allowed(s, first, 1_200))
    expect(AdaptiveRate.allowed(s, second, 1_350)).toBeLessThan(AdaptiveRate.allowed(s, first, 1_350))
  })

  it("never below the minimum", () => {
    const s = settings(40, 2)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 0))
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBe(2)
  })

  it.prop(
    "property: whatever the refusals, the rate stays within min..bound, and each new cut lowers it",
    [fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 1, max: 500 })],
    ([seed, bound]) => {
      const s = settings(bound)
      let previous = AdaptiveRate.initial
      for (const { at, state } of history(seed, bound, 30)) {
        for (const dt of [0, 500, 5_000, 50_000, 500_000]) {
          const rate = AdaptiveRate.allowed(s, state, at + dt)
          expect(rate).toBeGreaterThanOrEqual(s.min)
          expect(rate).toBeLessThanOrEqual(bound)
        }
        if (state.cutAt === at && AdaptiveRate.allowed(s, previous, at) > s.min) {
          expect(AdaptiveRate.allowed(s, state, at)).toBeLessThan(AdaptiveRate.allowed(s, previous, at))
        }
        previous = state
      }
    }
  )

  it.prop(
    "property: after the last refusal the rate only grows, and is back at the bound in finite time",
    [fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 2, max: 500 })],
    ([seed, bound]) => {
      const s = settings(bound)
      const last = history(seed, bound, 10).at(-1)!
      let rate = 0
      for (let t = last.at; t < last.at + 200_000; t += 997) {
        const now = AdaptiveRate.allowed(s, last.state, t)
        expect(now).toBeGreaterThanOrEqual(rate)
        rate = now
      }
      const ceiling = Math.max(s.min * AdaptiveRate.cut, last.state.ceiling)
      const back = last.state.cutAt + backAtBound(bound, ceiling) * 1000
      expect(AdaptiveRate.allowed(s, last.state, back + 1)).toBe(bound)
    }
  )
})
