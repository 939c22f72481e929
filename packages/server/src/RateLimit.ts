/**
 * The per-API-key request budget, counted by arrival time in one of three shapes
 * (docs/wire-contract.md, "Ordering, windows and limits"): at most `limit` requests in any sliding
 * `window` (the default), at most `limit` per fixed `window` aligned on the epoch, or a token bucket
 * holding `limit` tokens refilled at `limit` per `window`. A refused request does not use the budget.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Limiters from "./internal/Limiters.js"

/**
 * How a limiter counts: `sliding` (at most `limit` in any window), `fixed` (at most `limit` per
 * window aligned on the epoch: up to twice that may pass around a boundary) or `tokenBucket` (a burst
 * of `limit`, then `limit` per window, refilled continuously).
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * assert.deepStrictEqual(RateLimit.shapes, ["sliding", "fixed", "tokenBucket"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const shapes = ["sliding", "fixed", "tokenBucket"] as const

/**
 * One of `shapes`.
 *
 * @example
 * ```ts
 * import type { RateLimit } from "@broker-history/server"
 *
 * const shape: RateLimit.Shape = "tokenBucket"
 * assert.strictEqual(shape, "tokenBucket")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Shape = (typeof shapes)[number]

/**
 * Budget settings: `limit` requests per API key per `window`, counted as `shape` says (default
 * `sliding`: at most `limit` in any window).
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * const twoPerSecond: RateLimit.Settings = { limit: 2, window: "1 second" }
 * const limiter = RateLimit.make(twoPerSecond)
 * assert.deepStrictEqual([0, 1, 2].map((t) => limiter.take("key", t).allowed), [true, true, false])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly limit: number
  readonly window: Duration.DurationInput
  /**
   * How requests are counted against `limit` (default `sliding`).
   *
   * @since 0.2.0
   */
  readonly shape?: Shape | undefined
}

/**
 * The reference server's default budget: 500 requests per 10 seconds per key (see docs/wire-contract.md, "Ordering, windows and limits").
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * assert.deepStrictEqual(RateLimit.defaults, { limit: 500, window: "10 seconds" })
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Settings = { limit: 500, window: "10 seconds" }

/**
 * The outcome for one request: allowed, or refused with the whole seconds until a slot frees (at least 1).
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * const retryAfter = (outcome: RateLimit.Outcome): string | undefined =>
 *   outcome.allowed ? undefined : String(outcome.retryAfterSeconds)
 * const limiter = RateLimit.make({ limit: 1, window: "10 seconds" })
 * assert.strictEqual(retryAfter(limiter.take("key", 0)), undefined)
 * assert.strictEqual(retryAfter(limiter.take("key", 2500)), "8") // the slot frees at 10000 ms
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/**
 * A limiter keyed by API key, counting as its `Settings.shape` says; a refused request does not use
 * the budget.
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * const limiter: RateLimit.Limiter = RateLimit.make({ limit: 1, window: "1 second" })
 * assert.deepStrictEqual(limiter.take("key", 0), { allowed: true })
 * assert.deepStrictEqual(limiter.take("key", 10), { allowed: false, retryAfterSeconds: 1 })
 * assert.deepStrictEqual(limiter.take("other", 10), { allowed: true }) // one budget per key
 * assert.deepStrictEqual(limiter.take("key", 1000), { allowed: true })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Limiter {
  /** Takes a slot for a request of `key` that arrived at `now` (ms), or refuses it. */
  readonly take: (key: string, now: number) => Outcome
}

/**
 * Makes a limiter in `settings.shape` (`sliding` when none): per key, `sliding` keeps the arrival times
 * of its accepted requests and lets a request in when no window would hold more than `limit` of them;
 * `fixed` counts the requests let in per window aligned on the epoch; `tokenBucket` keeps a bucket of
 * `limit` tokens refilled at `limit` per window. `now` is when the request arrived, and requests may be
 * checked in another order than they arrived (a gateway limits on arrival, whatever its later work): a
 * request checked late counts where it arrived, and is let in only when the accepted, in arrival
 * order, still keep the shape's rule. A request that arrived more than two windows before one
 * already checked is refused (what it would count against may be forgotten), with the seconds until
 * it would be judged. Each key keeps at most three times `limit` arrival times, and keys idle for
 * three windows are dropped as new ones come (docs/wire-contract.md, "Ordering, windows and limits").
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * const limiter = RateLimit.make(RateLimit.defaults)
 * const first = Array.from({ length: 501 }, (_, i) => limiter.take("key", i))
 * assert.ok(first.slice(0, 500).every((outcome) => outcome.allowed))
 * assert.deepStrictEqual(first[500], { allowed: false, retryAfterSeconds: 10 })
 * // Checked out of order: the request that arrived at 0 ms is checked after the one of 10000 ms.
 * const late = RateLimit.make({ limit: 1, window: "10 seconds" })
 * assert.deepStrictEqual([10_000, 0, 5_000].map((arrived) => late.take("key", arrived).allowed), [true, true, false])
 * // Fixed windows: the count starts again at each multiple of the window.
 * const fixed = RateLimit.make({ limit: 2, window: "1 second", shape: "fixed" })
 * assert.deepStrictEqual([998, 999, 999, 1000, 1001].map((t) => fixed.take("key", t).allowed), [true, true, false, true, true])
 * // A token bucket: a burst of the limit, then one token every window / limit.
 * const bucket = RateLimit.make({ limit: 2, window: "1 second", shape: "tokenBucket" })
 * assert.deepStrictEqual([0, 0, 0].map((t) => bucket.take("key", t).allowed), [true, true, false])
 * assert.deepStrictEqual(bucket.take("key", 100), { allowed: false, retryAfterSeconds: 1 }) // a token at 500 ms
 * assert.deepStrictEqual(bucket.take("key", 500), { allowed: true })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Settings): Limiter => {
  const limit = Math.max(1, Math.floor(settings.limit))
  const windowMillis = Math.max(1, Duration.toMillis(Duration.decode(settings.window)))
  const judges = Limiters.keyed(windowMillis, shapeOf(settings.shape ?? "sliding")(limit, windowMillis))
  return {
    take: (key, now) => {
      const freesAt = judges.take(key, now)
      return freesAt === undefined
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) }
    }
  }
}

/** The judge of one key for each shape. */
const shapeOf = (shape: Shape): (limit: number, windowMillis: number) => Limiters.Shape => {
  switch (shape) {
    case "sliding":
      return Limiters.sliding
    case "fixed":
      return Limiters.fixed
    case "tokenBucket":
      return Limiters.tokenBucket
  }
}
