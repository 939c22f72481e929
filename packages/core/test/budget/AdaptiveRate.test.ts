import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as AdaptiveRate from "../../src/budget/AdaptiveRate.js"
import * as Prng from "../../src/random/Prng.js"
import { prop } from "../support/Property.js"

const settings = (bound: number, min = 1): AdaptiveRate.Settings => ({ bound, min, intervalMillis: 1000 })
const H = AdaptiveRate.holdIntervals
const D = AdaptiveRate.doubleIntervals

const refusal = (
  sentAt: number,
  at: number,
  sentBefore: number,
  pauseMillis = 0,
  acceptedMost = 0,
  sustained = 0,
  acceptedBefore = 0
): AdaptiveRate.Refusal => ({ sentAt, at, sentBefore, acceptedMost, sustained, acceptedBefore, pauseMillis })

/** Intervals after a cut at which the rate is back at `bound`, from the curve's definition. */
const backAtBound = (bound: number, ceiling: number) => H + D * Math.cbrt(bound / ceiling - 1)

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

  it("a refusal sets the rate to what was sent in the interval before it, held there, then probing beyond", () => {
    const s = settings(40)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20))
    expect(state.ceiling).toBe(20)
    // At the measured level at once (the service took 20 in its window and refused the 21st), held
    // there H intervals, then probing beyond: 5 % above 0.37 D intervals later, twice D intervals later.
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBe(20)
    expect(AdaptiveRate.allowed(s, state, 1_150 + H * 1000)).toBe(20)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (H + 1) * 1000)).toBeGreaterThan(20)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (H + 0.36 * D) * 1000)).toBeLessThan(21)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (H + 0.38 * D) * 1000)).toBeGreaterThan(21)
    expect(AdaptiveRate.allowed(s, state, 1_150 + (H + D) * 1000)).toBe(40)
    // Then beyond it, up to the bound and no further.
    expect(AdaptiveRate.allowed(s, state, 1_150 + backAtBound(40, 20) * 1000 - 100)).toBeLessThan(40)
    expect(AdaptiveRate.allowed(s, state, 1_150 + backAtBound(40, 20) * 1000)).toBe(40)
    expect(AdaptiveRate.adapting(s, state, 1_150 + backAtBound(40, 20) * 1000)).toBe(false)
  })

  it("the rate sent, not the bound, is what is cut: a bound far above the service's limit", () => {
    const s = settings(80)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 21))
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBe(21)
  })

  it("a refusal of a probe above the level the service accepted returns to that level", () => {
    const s = settings(40)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20, 0, 20))
    // Probing: 20.1 per interval lets 21 start in one; the 21st is refused.
    const probeAt = 1_150 + (H + 0.17 * D) * 1000
    expect(AdaptiveRate.allowed(s, first, probeAt)).toBeGreaterThan(20)
    expect(AdaptiveRate.allowed(s, first, probeAt)).toBeLessThan(20.2)
    const second = AdaptiveRate.refused(s, first, refusal(probeAt, probeAt + 150, 20, 0, 20))
    expect(second).toEqual({
      ceiling: 20,
      cutLevel: 20,
      spreadMillis: 0,
      cutAt: probeAt + 150,
      pausedUntil: 0,
      belowAccepted: false,
      steppedDown: false
    })
    expect(AdaptiveRate.allowed(s, second, probeAt + 150 + H * 1000)).toBe(20)
    // The service accepted 21 within one interval meanwhile (a fixed window's boundary, or bunching)
    // but refused after 20: the probe's refusal shows that count was not its rate.
    const straddled = AdaptiveRate.refused(s, first, refusal(probeAt, probeAt + 150, 20, 0, 21))
    expect([straddled.ceiling, straddled.spreadMillis]).toEqual([20, 0])
    // A limit raised meanwhile, the rate grown to 24.8 (25 may start in one interval): the count
    // before the refusal is the level, below the rate sent.
    const raised = AdaptiveRate.refused(s, first, refusal(probeAt + 9_000, probeAt + 9_150, 27, 0, 27))
    expect(raised.ceiling).toBe(24)
  })

  it("a refusal soon after a cut, the level not accepted in any interval since: the level is the rate sustained", () => {
    // A token bucket of 20 per second let 26 through in the interval before the first refusal (its
    // stored burst): the cut to 26 is refused again 250 ms later, the service having accepted 5 since.
    const s = settings(80)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 26, 0, 26, 19.4))
    expect([first.ceiling, first.belowAccepted]).toEqual([26, false])
    const second = AdaptiveRate.refused(s, first, refusal(1_400, 1_550, 25, 0, 5, 19.6))
    expect([second.ceiling, second.belowAccepted, second.spreadMillis]).toEqual([20, true, 0])
    // Acceptances of requests sent before it show the bucket's bursts, not its rate: no raise.
    expect(AdaptiveRate.accepted(s, second, 26)).toBe(second)
    // Without that rule an acceptance raises a level lowered by refusals counted out of order, but
    // never above the level the cut set (the service refused after 26).
    expect(AdaptiveRate.accepted(s, { ...first, ceiling: 24 }, 27).ceiling).toBe(26)
    // Three intervals after the cut a refusal is a probe's again: the interval's count.
    const probe = AdaptiveRate.refused(s, first, refusal(1_150 + 3_000, 1_300 + 3_000, 24, 0, 24, 19.9))
    expect([probe.ceiling, probe.belowAccepted]).toEqual([24, false])
  })

  it("a refusal soon after a cut of a request sent below the cut rate says nothing of bursts", () => {
    // 26 per interval allowed, 10 sent in the interval before the refusal (a random 429, or another
    // program on the key): the usual cut to what was sent, not the rate sustained.
    const s = settings(80)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 26, 0, 26, 19.4))
    const second = AdaptiveRate.refused(s, first, refusal(1_400, 1_550, 10, 0, 5, 3))
    expect([second.ceiling, second.belowAccepted]).toEqual([10, false])
  })

  it("a refusal soon after a cut at a level the service accepted in an interval since keeps the level", () => {
    // A sliding window of 20: the cut to 20 was right; a request bunched up with others is refused.
    const s = settings(40)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20, 0, 20, 10))
    const second = AdaptiveRate.refused(s, first, refusal(2_500, 2_650, 19, 0, 20, 14))
    expect([second.ceiling, second.belowAccepted, second.spreadMillis]).toEqual([20, false, 25])
  })

  it("a refusal after fewer requests than the service accepted before in one interval keeps that level", () => {
    // Requests bunched up on the way (a busy event loop): 16 sent in the interval, 20 seen accepted.
    const s = settings(20)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 16, 0, 20))
    expect(state.ceiling).toBe(20)
    // The level stands; the pacing's margin widens by 2.5 % of the interval while the rate holds.
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBe(20)
    expect(AdaptiveRate.spread(s, state, 1_150)).toBe(25)
    expect(AdaptiveRate.spread(s, state, 1_150 + H * 1000 - 1)).toBe(25)
    expect(AdaptiveRate.spread(s, state, 1_150 + H * 1000)).toBe(0)
    // Refused so again while it is widened: the level was not the service's rate (a fixed window's
    // boundary, bunching the margin cannot absorb), one less.
    // The margin is then back to the configured one. Refused at the new level, it widens again, by
    // as much again at each such refusal, up to a quarter of the interval; the level steps down once
    // only (refusals unrelated to the rate would otherwise walk it down one by one).
    let again = state
    for (const [i, level, spreadMillis] of [[1, 19, 0], [2, 19, 25], [3, 19, 50], [4, 19, 75]] as const) {
      again = AdaptiveRate.refused(s, again, refusal(1_000 + i * 2_000, 1_150 + i * 2_000, 16, 0, 20))
      expect([again.ceiling, AdaptiveRate.spread(s, again, 1_150 + i * 2_000)]).toEqual([level, spreadMillis])
      // Acceptances of requests sent before that cut show the 20 again: they raise nothing.
      expect(AdaptiveRate.accepted(s, again, 20)).toBe(again)
    }
    for (let i = 5; i <= 16; i++) {
      again = AdaptiveRate.refused(s, again, refusal(1_000 + i * 2_000, 1_150 + i * 2_000, 16, 0, 20))
    }
    expect([again.ceiling, AdaptiveRate.spread(s, again, 1_150 + 16 * 2_000)]).toEqual([19, 250])
    // A cut from evidence (fewer accepted than the rate sent) allows one step down again.
    const cut = AdaptiveRate.refused(s, again, refusal(40_000, 40_150, 17, 0, 17))
    expect([cut.ceiling, cut.steppedDown]).toEqual([17, false])
    // After the hold the margin is back to the configured one, and a refusal there widens it again.
    const afterHold = AdaptiveRate.refused(s, state, refusal(1_150 + H * 1000, 1_300 + H * 1000, 16, 0, 20))
    expect([afterHold.ceiling, AdaptiveRate.spread(s, afterHold, 1_300 + H * 1000)]).toEqual([20, 25])
    // A refusal that lowers the level keeps the spread; after the hold it is gone.
    const lower = AdaptiveRate.refused(s, state, refusal(2_000, 2_150, 16, 0, 12, 16))
    expect([lower.ceiling, AdaptiveRate.spread(s, lower, 2_150)]).toEqual([16, 25])
    const later = AdaptiveRate.refused(s, state, refusal(1_150 + H * 1000, 1_300 + H * 1000, 16, 0, 12))
    expect(AdaptiveRate.spread(s, later, 1_300 + H * 1000)).toBe(0)
    expect(AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 16, 0, 12)).ceiling).toBe(16)
    // No evidence of 20 accepted: at most 19, whatever was sent (the service refused the 20th).
    expect(AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 25, 0, 19)).ceiling).toBe(19)
    // Not above the rate allowed either: 21 accepted at a budget of 20 was a jitter of the window.
    expect(AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 16, 0, 21)).ceiling).toBe(20)
  })

  it("a refusal of an attempt sent before the last cut cuts nothing again; its pause still counts", () => {
    const s = settings(40)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 20))
    expect(AdaptiveRate.refused(s, first, refusal(1_100, 1_250, 20))).toBe(first)
    const paused = AdaptiveRate.refused(s, first, refusal(1_100, 1_250, 20, 1_000))
    expect(paused).toEqual({ ...first, pausedUntil: 2_250 })
    // Sent after the cut: a second cut, below the rate allowed when it was sent.
    const second = AdaptiveRate.refused(s, first, refusal(1_200, 1_350, 30, 0, 0, 25))
    expect(second.ceiling).toBe(19)
    expect(AdaptiveRate.allowed(s, second, 1_350)).toBeLessThan(AdaptiveRate.allowed(s, first, 1_350))
  })

  it("refusals and acceptances of attempts sent before the cut, in any order, settle on what the service held", () => {
    // Four attempts sent together into a window holding 16: the 17th to 20th accepted, the 21st to
    // 24th refused. The refusal of the 24th is counted first (23 before it), before any acceptance.
    const s = settings(40)
    const first = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 23, 0, 16))
    expect(first.ceiling).toBe(23)
    // The 21st's refusal lowers the level to its own count; it cuts nothing again (same cut).
    const lowered = AdaptiveRate.refused(s, first, refusal(1_000, 1_151, 20, 0, 16))
    expect(lowered).toEqual({
      ceiling: 20,
      cutLevel: 23,
      spreadMillis: 0,
      cutAt: 1_150,
      pausedUntil: 0,
      belowAccepted: false,
      steppedDown: false
    })
    // A count below what the service is known to have accepted does not lower it.
    expect(AdaptiveRate.refused(s, first, refusal(1_000, 1_151, 12, 0, 18)).ceiling).toBe(18)
    // Acceptances of attempts sent before the cut raise it to what the service accepted, never lower it.
    expect(AdaptiveRate.accepted(s, { ...first, ceiling: 17 }, 20).ceiling).toBe(20)
    expect(AdaptiveRate.accepted(s, lowered, 19)).toBe(lowered)
    // Never above the level the cut set: the service refused after 23.
    expect(AdaptiveRate.accepted(s, lowered, 60).ceiling).toBe(23)
    expect(AdaptiveRate.accepted(s, AdaptiveRate.initial, 20)).toBe(AdaptiveRate.initial)
  })

  it("never below the minimum", () => {
    const s = settings(40, 2)
    const state = AdaptiveRate.refused(s, AdaptiveRate.initial, refusal(1_000, 1_150, 0))
    expect(AdaptiveRate.allowed(s, state, 1_150)).toBe(2)
  })

  prop(
    "property: whatever the refusals, the rate stays within min..bound, and a new cut never raises it",
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
        // With no evidence of accepted requests (the history's `acceptedMost` is 0) it lowers it.
        if (state.cutAt === at && AdaptiveRate.allowed(s, previous, at) > s.min) {
          expect(AdaptiveRate.allowed(s, state, at)).toBeLessThan(AdaptiveRate.allowed(s, previous, at))
        }
        previous = state
      }
    }
  )

  prop(
    "property: a cut keeps what the service was seen to accept in one interval (or, soon after a cut, what it sustained; refused there again with the pacing widened, one less; a refused probe, the level it grew from), and is below the rate sent otherwise",
    [fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 2, max: 500 })],
    ([seed, bound]) => {
      const s = settings(bound)
      const next = Prng.mulberry32(seed)
      let state = AdaptiveRate.initial
      let now = 0
      for (let i = 0; i < 30; i++) {
        now += Prng.int(next, 1_000, 40_000)
        const n = Math.ceil(AdaptiveRate.allowed(s, state, now))
        const acceptedMost = Prng.int(next, 0, n + 2)
        const sustained = Prng.int(next, 0, 2 * n)
        const sentBefore = Prng.int(next, 0, 2 * n)
        const after = AdaptiveRate.refused(
          s,
          state,
          refusal(now, now + 150, sentBefore, 0, acceptedMost, sustained)
        )
        const rate = AdaptiveRate.allowed(s, after, now + 150)
        const soon = now - state.cutAt < AdaptiveRate.soonIntervals * 1000 && acceptedMost < n &&
          sentBefore >= n - 1
        // A probe refused (sent above the last cut's level): back to that level at least, below the
        // rate sent. Refused at a level the service accepted, with the pacing already widened: one less.
        const probe = !soon && n > state.ceiling
        const againWidened = !soon && !probe && acceptedMost >= n && AdaptiveRate.spread(s, state, now + 150) > 0 &&
          !state.steppedDown
        expect(after.belowAccepted).toBe(soon || againWidened)
        expect(rate).toBeGreaterThanOrEqual(
          soon
            ? Math.max(s.min, Math.min(sustained, n - 1))
            : probe
            ? Math.max(s.min, Math.min(state.ceiling, s.bound))
            : againWidened
            ? Math.max(s.min, n - 1)
            : Math.min(acceptedMost, n)
        )
        if ((acceptedMost < n || againWidened || probe) && n > s.min) expect(rate).toBeLessThan(n)
        state = after
      }
    }
  )

  prop(
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
      const ceiling = Math.max(s.min, last.state.ceiling)
      const back = last.state.cutAt + backAtBound(bound, ceiling) * 1000
      expect(AdaptiveRate.allowed(s, last.state, back + 1)).toBe(bound)
    }
  )
})
