// What a plan costs before it runs: one request per stream per maximum window of what it reads (its
// whole range on a first run; later its settlement window, what followed its checkpoint and any
// backfill), the list pages, and the time at the key's budget.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Estimate from "../../../../src/internal/sync/plan/Estimate.js"

const day = 86_400_000
const now = 1_700_000_000_000
const limits: Estimate.Limits = {
  maxWindow: { transfers: 30 * day, deposits: 10 * day },
  settlement: day,
  rate: { limit: 20, interval: 1000 }
}

describe("Estimate.windows", () => {
  it("whole windows over an inclusive range, at least one; one for any range without a maximum", () => {
    expect(Estimate.windows(now - 30 * day + 1, now, 30 * day)).toBe(1)
    expect(Estimate.windows(now - 30 * day, now, 30 * day)).toBe(2)
    expect(Estimate.windows(now - 365 * day, now, 30 * day)).toBe(13)
    expect(Estimate.windows(now, now, 30 * day)).toBe(1)
    expect(Estimate.windows(now - 10 * 365 * day, now, undefined)).toBe(1)
  })

  it.prop("never fewer than one, and never fewer windows than the range divided by the width", {
    length: fc.integer({ min: 0, max: 20 * 365 * day }),
    width: fc.integer({ min: 60_000, max: 400 * day })
  }, ({ length, width }) => {
    const n = Estimate.windows(now - length, now, width)
    expect(n).toBeGreaterThanOrEqual(1)
    expect(n * width).toBeGreaterThanOrEqual(length + 1)
    expect((n - 1) * width).toBeLessThan(length + 1)
  })
})

describe("Estimate.streamRequests", () => {
  it("a first run: its whole range from its start", () => {
    expect(Estimate.streamRequests({ kind: "transfers", start: now - 365 * day }, limits, now)).toBe(13)
    expect(Estimate.streamRequests({ kind: "deposits", start: now - 365 * day }, limits, now)).toBe(37)
  })

  it("a later run: the settlement window, what followed the checkpoint, and a backfill when the start is earlier", () => {
    const stored = { checkpoint: now - 45 * day, coveredSince: now - 100 * day }
    // Settlement [checkpoint - 1d, checkpoint]: 1; onward 45 days: 2.
    expect(Estimate.streamRequests({ kind: "transfers", start: now - 100 * day, stored }, limits, now)).toBe(3)
    // A start 200 days back backfills the 100 days before what is stored: 4 more.
    expect(Estimate.streamRequests({ kind: "transfers", start: now - 200 * day, stored }, limits, now)).toBe(7)
    // Without a settlement window nothing is re-read.
    expect(
      Estimate.streamRequests(
        { kind: "transfers", start: now - 100 * day, stored },
        { ...limits, settlement: 0 },
        now
      )
    ).toBe(2)
  })
})

describe("Estimate.listPages and estimate", () => {
  it("a list ends at its first short page: a full last page needs one more", () => {
    expect([0, 1, 199, 200, 201, 400].map((n) => Estimate.listPages(n, 200))).toEqual([1, 1, 1, 2, 2, 3])
  })

  it("the streams' requests plus the list pages, and the seconds at the budget", () => {
    const streams: ReadonlyArray<Estimate.Stream> = [
      { kind: "deposits", start: now - 365 * day },
      ...Array.from({ length: 8 }, () => ({ kind: "transfers" as const, start: now - 59 * day }))
    ]
    expect(Estimate.estimate(streams, limits, now, 2)).toEqual({
      streams: 9,
      requests: 37 + 8 * 2 + 2,
      seconds: (37 + 16 + 2) / 20
    })
  })
})
