// The limiter's three shapes: exact admissions on hand-made arrivals, honest Retry-After values, one
// budget per key, requests checked out of arrival order, and per shape a property over random
// arrivals: the accepted requests never break the shape's own rule.
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { RateLimit } from "../src/index.js"

const admitted = (limiter: RateLimit.Limiter, times: ReadonlyArray<number>, key = "k") =>
  times.map((t) => limiter.take(key, t).allowed)

describe("RateLimit shapes", () => {
  it("fixed: at most limit per aligned window, up to twice that around a boundary", () => {
    const limiter = RateLimit.make({ limit: 2, window: "1 second", shape: "fixed" })
    expect(admitted(limiter, [990, 995, 999, 1000, 1001, 1002])).toEqual([true, true, false, true, true, false])
    // Retry-After: the whole seconds until the next boundary.
    expect(limiter.take("k", 1100)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(admitted(limiter, [2000])).toEqual([true])
    expect(admitted(limiter, [2000, 2001], "other")).toEqual([true, true])
  })

  it("tokenBucket: a burst of limit, then limit per window, refilled continuously", () => {
    const limiter = RateLimit.make({ limit: 4, window: "1 second", shape: "tokenBucket" })
    expect(admitted(limiter, [0, 0, 0, 0, 0])).toEqual([true, true, true, true, false])
    // One token every 250 ms.
    expect(admitted(limiter, [249, 250, 251, 500])).toEqual([false, true, false, true])
    expect(limiter.take("k", 600)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    // A long pause refills the bucket to its capacity, not beyond.
    expect(admitted(limiter, [10_000, 10_000, 10_000, 10_000, 10_000])).toEqual([true, true, true, true, false])
  })

  it("tokenBucket: Retry-After covers the wait for one token", () => {
    const limiter = RateLimit.make({ limit: 1, window: "3 seconds", shape: "tokenBucket" })
    expect(limiter.take("k", 0).allowed).toBe(true)
    expect(limiter.take("k", 500)).toEqual({ allowed: false, retryAfterSeconds: 3 })
    expect(limiter.take("k", 2999).allowed).toBe(false)
    expect(limiter.take("k", 3000).allowed).toBe(true)
  })

  it("sliding stays the default", () => {
    const limiter = RateLimit.make({ limit: 2, window: "1 second" })
    expect(admitted(limiter, [990, 995, 999, 1000, 1989, 1995])).toEqual([true, true, false, false, false, true])
  })

  it("requests checked late with an earlier arrival never let more in", () => {
    const fixed = RateLimit.make({ limit: 2, window: "1 second", shape: "fixed" })
    expect(admitted(fixed, [1500, 1400, 1300, 900])).toEqual([true, true, false, true])
    const bucket = RateLimit.make({ limit: 2, window: "1 second", shape: "tokenBucket" })
    expect(admitted(bucket, [1000, 1000, 500, 400])).toEqual([true, true, false, false])
  })

  // Arrivals in order, with gaps from 0 to 400 ms, some at the same millisecond.
  const arrivals = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 200 }).map((gaps) => {
    let t = 0
    return gaps.map((g) => (t += g))
  })

  it("property, fixed: no aligned window holds more than limit accepted", () => {
    fc.assert(fc.property(arrivals, fc.integer({ min: 1, max: 5 }), (times, limit) => {
      const limiter = RateLimit.make({ limit, window: "1 second", shape: "fixed" })
      const perWindow = new Map<number, number>()
      for (const t of times) {
        if (!limiter.take("k", t).allowed) continue
        const k = Math.floor(t / 1000)
        perWindow.set(k, (perWindow.get(k) ?? 0) + 1)
      }
      return [...perWindow.values()].every((n) => n <= limit)
    }))
  })

  it("property, tokenBucket: over every span, accepted ≤ limit + limit × elapsed / window", () => {
    fc.assert(fc.property(arrivals, fc.integer({ min: 1, max: 5 }), (times, limit) => {
      const limiter = RateLimit.make({ limit, window: "1 second", shape: "tokenBucket" })
      const accepted = times.filter((t) => limiter.take("k", t).allowed)
      for (let i = 0; i < accepted.length; i++) {
        for (let j = i; j < accepted.length; j++) {
          if (j - i + 1 > limit + Math.floor((limit * (accepted[j]! - accepted[i]!)) / 1000) + 1e-9) return false
        }
      }
      return true
    }))
  })

  it("property, sliding: no window holds more than limit accepted", () => {
    fc.assert(fc.property(arrivals, fc.integer({ min: 1, max: 5 }), (times, limit) => {
      const limiter = RateLimit.make({ limit, window: "1 second", shape: "sliding" })
      const accepted = times.filter((t) => limiter.take("k", t).allowed)
      return accepted.every((t, i) => i < limit || t - accepted[i - limit]! >= 1000)
    }))
  })
})
