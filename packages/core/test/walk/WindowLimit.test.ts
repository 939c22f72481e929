import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as WindowLimit from "../../src/walk/WindowLimit.js"
import { prop } from "../support/Property.js"

const day = 86_400_000
/** The reference service's refusal of a transfer window over 30 days. */
const reference = "Param is error: endTime - startTime must not exceed 2592000000 ms (30d)"

const known = (accepted: number, refused: number, stated?: number): WindowLimit.KnownWidths => ({
  accepted,
  refused,
  stated
})

describe("WindowLimit: the widest window an endpoint accepts, learned from its answers", () => {
  it("a refusal is about the window when its message speaks of the time window and of a size exceeded", () => {
    for (
      const msg of [
        reference,
        "time window too large",
        "Param is error: the time range cannot exceed 7 days",
        "Time interval too long",
        "Query period must not be more than 90 days",
        "startTime and endTime span must be less than 30 days",
        "The window is limited to 10 days"
      ]
    ) expect(WindowLimit.mentionsWindow(msg), msg).toBe(true)
    for (
      const msg of [
        // A parameter the service does not know: narrowing cannot fix it.
        "Param is error: fromAccountType must be SPOT or FUTURES",
        // The ends, but no size exceeded.
        "Param is error: startTime must not be after endTime",
        "Param is error: startTime must be less than endTime",
        // A size exceeded, but not of the time window.
        "Param is error: limit must be an integer from 1 to 500",
        "recvWindow is too large",
        "Mandatory parameter 'fromAccountType' was not sent"
      ]
    ) expect(WindowLimit.mentionsWindow(msg), msg).toBe(false)
  })

  it("classify: narrow only a window wider than any accepted and than the floor", () => {
    const nothing = WindowLimit.unknown
    expect(WindowLimit.classify(nothing, 365 * day, reference)).toBe("Narrow")
    expect(WindowLimit.classify(nothing, 365 * day, "Param is error: fromAccountType must be SPOT or FUTURES")).toBe(
      "Other"
    )
    // At or below the floor: give up.
    expect(WindowLimit.classify(nothing, WindowLimit.floor, "time window too large")).toBe("Floor")
    expect(WindowLimit.classify(nothing, WindowLimit.floor + 1, "time window too large")).toBe("Narrow")
    // Refused at a width the service accepted before: it holds to no one maximum.
    expect(WindowLimit.classify(known(30 * day, 31 * day), 20 * day, "time window too large")).toBe("Inconsistent")
    expect(WindowLimit.classify(known(30 * day, 31 * day), 30 * day, "time window too large")).toBe("Inconsistent")
  })

  it("statedWidth: the widest duration the message names between the widest accepted and the refused width", () => {
    expect(WindowLimit.statedWidth(reference, 0, 365 * day)).toBe(30 * day)
    expect(WindowLimit.statedWidth("the time range cannot exceed 7 days", 0, 365 * day)).toBe(7 * day)
    expect(WindowLimit.statedWidth("window over 2h is too long", 0, day)).toBe(2 * 3_600_000)
    // Not below the width refused, not at or below what was accepted, not under the floor.
    expect(WindowLimit.statedWidth(reference, 0, 30 * day)).toBeUndefined()
    expect(WindowLimit.statedWidth(reference, 30 * day, 365 * day)).toBeUndefined()
    expect(WindowLimit.statedWidth("window too large: max 30 s", 0, day)).toBeUndefined()
    // Two durations: the widest that fits ("you asked for 45 days" does not).
    expect(WindowLimit.statedWidth("window of 45 days exceeds the maximum of 30 days", 0, 45 * day)).toBe(30 * day)
    expect(WindowLimit.statedWidth("time window too large", 0, day)).toBeUndefined()
    // Dates and times are no durations.
    expect(WindowLimit.statedWidth("window 2025-01-01T00:00:00.000Z..2026-01-01 too long", 0, 400 * day))
      .toBeUndefined()
  })

  it("nothing refused: no bound, and an answer costs nothing but a comparison", () => {
    expect(WindowLimit.widest(WindowLimit.unknown)).toBe(Infinity)
    const seen = WindowLimit.accepted(WindowLimit.unknown, 10 * day)
    expect(seen).toEqual(known(10 * day, Infinity))
    expect(WindowLimit.widest(seen)).toBe(Infinity)
    // A narrower window answered says nothing new: the same value, nothing allocated.
    expect(WindowLimit.accepted(seen, day)).toBe(seen)
  })

  it("the stated width first; once accepted it is the maximum", () => {
    const after = WindowLimit.refused(WindowLimit.unknown, 365 * day, reference)
    expect(after).toEqual(known(0, 365 * day, 30 * day))
    expect(WindowLimit.widest(after)).toBe(30 * day)
    const settled = WindowLimit.accepted(after, 30 * day)
    expect(settled).toEqual(known(30 * day, 30 * day + 1))
    expect(WindowLimit.settled(settled)).toBe(true)
    expect(WindowLimit.widest(settled)).toBe(30 * day)
    // A stated width that is refused too is forgotten: halving goes on below it.
    const wrong = WindowLimit.refused(after, 30 * day, reference)
    expect(wrong).toEqual(known(0, 30 * day))
    expect(WindowLimit.widest(wrong)).toBe(15 * day)
  })

  it("halving until a window is accepted, then bisection to within 1/32; never below the floor", () => {
    const halved = WindowLimit.refused(WindowLimit.unknown, 64 * day, "time window too large")
    expect(WindowLimit.widest(halved)).toBe(32 * day)
    const bracket = WindowLimit.accepted(halved, 32 * day)
    expect(WindowLimit.widest(bracket)).toBe(48 * day)
    const closer = WindowLimit.refused(bracket, 48 * day, "time window too large")
    expect(WindowLimit.widest(closer)).toBe(40 * day)
    // Within 1/32 of the accepted width: planned at the accepted width.
    expect(WindowLimit.widest(known(32 * day, 33 * day))).toBe(32 * day)
    expect(WindowLimit.settled(known(32 * day, 33 * day))).toBe(true)
    // Halving stops at the floor.
    expect(WindowLimit.widest(known(0, WindowLimit.floor + 10))).toBe(WindowLimit.floor)
    // Windows accepted narrower than the floor (narrow because of the density) say nothing of the
    // maximum: halving goes on, down to the floor, not down to them.
    expect(WindowLimit.widest(known(1, 100_005))).toBe(WindowLimit.floor)
    expect(WindowLimit.settled(known(1, 100_005))).toBe(false)
    expect(WindowLimit.widest(known(10_000, 400_000))).toBe(200_000)
  })

  it("an answer for a width refused before: the acceptance wins, taken as the maximum", () => {
    expect(WindowLimit.accepted(known(10 * day, 20 * day), 25 * day)).toEqual(known(25 * day, 25 * day + 1))
  })

  /** Every window as wide as `widest` allows, against a service accepting at most `max` ms: what it costs. */
  const learn = (range: number, max: number, msg: (width: number) => string) => {
    let state = WindowLimit.unknown
    let refusals = 0
    for (let i = 0; i < 200; i++) {
      const width = Math.min(range, WindowLimit.widest(state))
      if (width <= max) {
        const after = WindowLimit.accepted(state, width)
        if (after === state) return { state, refusals, width }
        state = after
        continue
      }
      refusals++
      const verdict = WindowLimit.classify(state, width, msg(width))
      if (verdict !== "Narrow") return { state, refusals, width, verdict }
      state = WindowLimit.refused(state, width, msg(width))
    }
    throw new Error("did not settle in 200 requests")
  }

  prop(
    "property: against one maximum, at most ⌈log2(range / maximum)⌉ + 6 refusals, settling within 1/32 of it",
    {
      range: fc.integer({ min: 2 * WindowLimit.floor, max: 10 * 365 * day }),
      share: fc.double({ min: 0.001, max: 1, noNaN: true }),
      stated: fc.constantFrom("exact", "none", "wrong")
    },
    ({ range, share, stated }) => {
      const max = Math.max(WindowLimit.floor + 1, Math.floor(range * share))
      // The message states the maximum (as the reference service), nothing, or a wrong one.
      const msg = (width: number) =>
        stated === "exact"
          ? `endTime - startTime must not exceed ${max} ms`
          : stated === "wrong"
          ? `time window of ${width} ms too large, keep it under ${Math.floor(max * 3)} ms`
          : "time window too large"
      const { refusals, state, verdict, width } = learn(range, max, msg)
      expect(verdict).toBeUndefined()
      // Halving to below the maximum, then each bisection step halves the gap until it is 1/32 of
      // what was accepted (5 steps), plus the stated width tried once.
      expect(refusals).toBeLessThanOrEqual(Math.ceil(Math.log2(range / max)) + 6 + (stated === "wrong" ? 1 : 0))
      expect(width).toBeLessThanOrEqual(max)
      if (range > max) expect(width).toBeGreaterThanOrEqual(Math.floor(max * 31 / 32) - 1)
      expect(state.accepted).toBe(width)
    }
  )

  it("a service refusing every window wider than the floor allows: given up at the floor", () => {
    const { refusals, verdict, width } = learn(365 * day, 30_000, () => "time window too large")
    expect(verdict).toBe("Floor")
    expect(width).toBe(WindowLimit.floor)
    expect(refusals).toBe(Math.ceil(Math.log2(365 * day / WindowLimit.floor)) + 1)
  })
})
