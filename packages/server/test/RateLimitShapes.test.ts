// The limiter's three shapes: exact admissions on hand-made arrivals, Retry-After values, one budget
// per key, requests checked out of arrival order (and too late to judge), idle keys dropped, and per
// shape properties over random arrivals checked in random order: the accepted never break the shape's
// rule, what the shape allows is never refused, and every Retry-After is exact.
import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import * as Limiters from "../src/internal/limit/Limiters.js"
import * as RateLimit from "../src/internal/limit/RateLimit.js"
import { signedGet, transfersPath } from "./support/Requests.js"
import { withServer } from "./support/Server.js"

const admitted = (limiter: RateLimit.Limiter, times: ReadonlyArray<number>, key = "k") =>
  times.map((t) => limiter.take(key, t).allowed)

const make = (shape: RateLimit.Shape, limit: number, window: RateLimit.Settings["window"] = "1 second") =>
  RateLimit.make({ limit, window, shape })

/** The judge of one key for `shape`. */
const shapeOf = (shape: RateLimit.Shape) =>
  shape === "sliding" ? Limiters.sliding : shape === "fixed" ? Limiters.fixed : Limiters.tokenBucket

describe("sliding (the default)", () => {
  it("lets in at most limit in any window, whatever the window's start", () => {
    const limiter = RateLimit.make({ limit: 2, window: "1 second" })
    expect(admitted(limiter, [990, 995, 999, 1000, 1989, 1995])).toEqual([true, true, false, false, false, true])
  })

  it("Retry-After: the whole seconds until the oldest accepted of the window leaves it", () => {
    const limiter = make("sliding", 1, "10 seconds")
    expect(limiter.take("k", 0)).toEqual({ allowed: true })
    expect(limiter.take("k", 2_500)).toEqual({ allowed: false, retryAfterSeconds: 8 })
    expect(limiter.take("k", 8_999)).toEqual({ allowed: false, retryAfterSeconds: 2 })
    expect(limiter.take("k", 9_000)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("k", 9_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("k", 10_000)).toEqual({ allowed: true })
  })

  it("a request checked after a later one counts where it arrived", () => {
    expect(admitted(make("sliding", 1, "10 seconds"), [10_000, 0, 5_000])).toEqual([true, true, false])
  })
})

describe("fixed", () => {
  it("lets in at most limit per window aligned on the epoch, so up to twice that around a boundary", () => {
    const limiter = make("fixed", 2)
    expect(admitted(limiter, [990, 995, 999, 1000, 1001, 1002])).toEqual([true, true, false, true, true, false])
    expect(admitted(limiter, [1999, 2000, 2999, 3000])).toEqual([false, true, true, true])
  })

  it("Retry-After: the whole seconds until the next boundary, at least 1", () => {
    const limiter = make("fixed", 1, "10 seconds")
    expect(limiter.take("k", 12_000)).toEqual({ allowed: true })
    expect(limiter.take("k", 13_500)).toEqual({ allowed: false, retryAfterSeconds: 7 })
    expect(limiter.take("k", 19_000)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("k", 19_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("k", 20_000)).toEqual({ allowed: true })
  })

  it("a request checked after later ones counts in the window it arrived in", () => {
    const limiter = make("fixed", 2)
    expect(admitted(limiter, [1500, 1400, 1300, 900, 2100, 950, 960])).toEqual([
      true,
      true,
      false,
      true,
      true,
      true,
      false
    ])
  })
})

describe("tokenBucket", () => {
  it("a burst of limit, then a token every window / limit, refilled continuously up to limit", () => {
    const limiter = make("tokenBucket", 4)
    expect(admitted(limiter, [0, 0, 0, 0, 0])).toEqual([true, true, true, true, false])
    expect(admitted(limiter, [249, 250, 251, 500])).toEqual([false, true, false, true])
    expect(limiter.take("k", 600)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    // A long pause refills the bucket to its capacity, not beyond.
    expect(admitted(limiter, [10_000, 10_000, 10_000, 10_000, 10_000])).toEqual([true, true, true, true, false])
  })

  it("Retry-After: the whole seconds until a token is back, rounded up", () => {
    const limiter = make("tokenBucket", 1, "3 seconds")
    expect(limiter.take("k", 0).allowed).toBe(true)
    expect(limiter.take("k", 500)).toEqual({ allowed: false, retryAfterSeconds: 3 })
    expect(limiter.take("k", 1_000)).toEqual({ allowed: false, retryAfterSeconds: 2 })
    expect(limiter.take("k", 2_001)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("k", 2_999).allowed).toBe(false)
    expect(limiter.take("k", 3_000).allowed).toBe(true)
  })

  it("a request checked late is let in only when the bucket, in arrival order, would have let it in", () => {
    // In arrival order 400, 500, 1000, 1000: the last finds 0.2 of a token.
    expect(admitted(make("tokenBucket", 2), [1000, 1000, 500, 400])).toEqual([true, true, true, false])
    // 0 and 0 empty the bucket: the one of 1 ms has no token, though the bucket was full at 1000 ms.
    expect(admitted(make("tokenBucket", 2), [0, 0, 1000, 1])).toEqual([true, true, true, false])
    // Let in at 1 ms, it would leave the second of 500 ms without a token; with one of 500 ms, not.
    expect(admitted(make("tokenBucket", 2), [0, 500, 500, 1])).toEqual([true, true, true, false])
    expect(admitted(make("tokenBucket", 2), [0, 500, 1])).toEqual([true, true, true])
  })
})

describe("every shape", () => {
  it.each(RateLimit.shapes)("%s: one budget per key", (shape) => {
    const limiter = make(shape, 1)
    expect(admitted(limiter, [0, 1], "a")).toEqual([true, false])
    expect(admitted(limiter, [1, 2], "b")).toEqual([true, false])
    expect(admitted(limiter, [3], "a")).toEqual([false])
  })

  it.each(RateLimit.shapes)(
    "%s: a request that arrived more than two windows before one checked is refused",
    (shape) => {
      const limiter = make(shape, 1)
      expect(limiter.take("k", 5_000)).toEqual({ allowed: true })
      // Refused until it would be judged: at 3000 ms.
      expect(limiter.take("k", 2_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
      expect(limiter.take("other", 1_500)).toEqual({ allowed: false, retryAfterSeconds: 2 })
      expect(limiter.take("k", 3_000)).toEqual({ allowed: true })
    }
  )

  it.each(RateLimit.shapes)("%s: keys idle for three windows are dropped as new keys come", (shape) => {
    const keyed = Limiters.keyed(1_000, shapeOf(shape)(1, 1_000), 4)
    for (const key of ["a", "b", "c"]) expect(keyed.take(key, 0)).toBeUndefined()
    expect(keyed.take("d", 1_000)).toBeUndefined()
    expect(keyed.size()).toBe(4)
    // At 3000 ms "a" to "c" are three windows old: dropped when "e" comes. "d" is two windows old: a
    // request of its arriving at 1000 ms is still judged, so it stays, counted.
    expect(keyed.take("e", 3_000)).toBeUndefined()
    expect(keyed.size()).toBe(2)
    expect(keyed.take("d", 1_000)).toBe(2_000)
    expect(keyed.take("a", 3_000)).toBeUndefined()
  })
})

describe("a key's judge alone", () => {
  it.each(["fixed", "tokenBucket"] as const)("%s: refuses a request older than what it keeps", (shape) => {
    const judge = shapeOf(shape)(1, 1_000)()
    expect(judge.take(5_000)).toBeUndefined()
    // Fixed keeps windows 3 to 5; the bucket, the arrivals from 3000 ms.
    expect(judge.take(2_500)).toBeDefined()
    expect(judge.take(3_000)).toBeUndefined()
  })
})

describe("the service", () => {
  withServer({
    seed: { seed: 3, transfers: 10, deposits: 0 },
    rateLimit: { limit: 2, window: "1 hour", shape: "tokenBucket" }
  })("with rateLimit.shape tokenBucket", (it) => {
    it.effect("refuses the third request, a token (half an hour) away", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* ReferenceServer.ReferenceServer
        const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]] as const
        const replies = []
        for (let i = 0; i < 3; i++) replies.push(yield* signedGet(baseUrl, transfersPath, route, ApiKeys.demo))
        expect(replies.map((reply) => reply.status)).toEqual([200, 200, 429])
        // A sliding window or a fixed one would say up to an hour.
        const retryAfter = Number(replies[2]!.headers["retry-after"])
        expect(retryAfter).toBeGreaterThan(1_700)
        expect(retryAfter).toBeLessThanOrEqual(1_800)
      }))
  })
})

// --- Properties, over a window of 1 second ---

const windowMillis = 1_000

/** Whether accepted arrival times keep the shape's rule. */
const keepsRule = (shape: RateLimit.Shape, limit: number, accepted: ReadonlyArray<number>): boolean => {
  const sorted = [...accepted].sort((a, b) => a - b)
  switch (shape) {
    case "sliding":
      // No limit + 1 within one window.
      return sorted.every((t, i) => i < limit || t - sorted[i - limit]! >= windowMillis)
    case "fixed": {
      // At most limit per aligned window.
      const perWindow = new Map<number, number>()
      for (const t of sorted) {
        perWindow.set(Math.floor(t / windowMillis), (perWindow.get(Math.floor(t / windowMillis)) ?? 0) + 1)
      }
      return [...perWindow.values()].every((n) => n <= limit)
    }
    case "tokenBucket":
      // A bucket of limit, full at first, refilled at limit per window: from the i-th to the j-th
      // accepted, at most limit + limit × (elapsed / window) (in whole numbers: times the window).
      return sorted.every((ti, i) =>
        sorted.every((tj, j) => j < i || (j - i + 1) * windowMillis <= limit * windowMillis + limit * (tj - ti))
      )
  }
}

/** Requests: when each arrived (up to `span`), and how much later it is checked. */
const requests = (maxDelay: number, span = 8 * windowMillis) =>
  fc.array(
    fc.record({ at: fc.integer({ min: 0, max: span }), delay: fc.integer({ min: 0, max: maxDelay }) }),
    { maxLength: 80 }
  )

/** The requests in the order they are checked. */
const checkOrder = <R extends { readonly at: number; readonly delay: number }>(rs: ReadonlyArray<R>) =>
  [...rs].sort((a, b) => a.at + a.delay - (b.at + b.delay))

const shape = fc.constantFrom(...RateLimit.shapes)
const limit = fc.integer({ min: 1, max: 5 })

describe("properties", () => {
  it("the accepted keep the shape's rule, in whatever order and however late they are checked", () => {
    fc.assert(
      fc.property(shape, limit, requests(4 * windowMillis), (shape, limit, rs) => {
        const limiter = make(shape, limit)
        const accepted = checkOrder(rs).filter((r) => limiter.take("k", r.at).allowed).map((r) => r.at)
        return keepsRule(shape, limit, accepted)
      }),
      { numRuns: 1_000 }
    )
  })

  it("what the shape allows is let in, checked in any order up to two windows late", () => {
    fc.assert(fc.property(shape, limit, requests(2 * windowMillis), (shape, limit, rs) => {
      // The requests a limiter checking on arrival lets in: together they keep the rule.
      const onArrival = make(shape, limit)
      const within = [...rs].sort((a, b) => a.at - b.at).filter((r) => onArrival.take("k", r.at).allowed)
      expect(keepsRule(shape, limit, within.map((r) => r.at))).toBe(true)
      const limiter = make(shape, limit)
      return checkOrder(within).every((r) => limiter.take("k", r.at).allowed)
    }))
  })

  it("Retry-After is exact: a request then is let in, one a second earlier is not", () => {
    // A window of 5 seconds, so that Retry-After runs from 1 to 5.
    fc.assert(fc.property(shape, limit, requests(0, 40_000), (shape, limit, rs) => {
      const arrivals = rs.map((r) => r.at).sort((a, b) => a - b)
      const limiter = make(shape, limit, "5 seconds")
      return arrivals.every((t, i) => {
        const outcome = limiter.take("k", t)
        if (outcome.allowed) return true
        // The same limiter as of this refusal, asked about a request that arrives later instead.
        const asked = (later: number) => {
          const replay = make(shape, limit, "5 seconds")
          for (const earlier of arrivals.slice(0, i)) replay.take("k", earlier)
          return replay.take("k", later).allowed
        }
        return asked(t + outcome.retryAfterSeconds * 1_000) &&
          (outcome.retryAfterSeconds === 1 || !asked(t + (outcome.retryAfterSeconds - 1) * 1_000))
      })
    }))
  })
})
