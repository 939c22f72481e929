/**
 * The per-API-key request budget: at most `limit` requests in any sliding `window` of their arrival
 * times. A refused request does not use the budget.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"

/**
 * Budget settings: at most `limit` requests per API key in any sliding `window`.
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
 * A sliding-window limiter keyed by API key; a refused request does not use the budget.
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
 * Makes a limiter: each key keeps the times of its accepted requests, in order, and a request is
 * allowed when, with its time among them, no window holds more than `limit`. `now` is when the
 * request arrived, and requests may be checked in another order than they arrived (a gateway limits
 * on arrival, whatever its later work): a request checked late with an early time counts where it
 * arrived. Times that no later request can share a window with (more than two windows before the
 * newest) are forgotten, so each key keeps at most twice `limit`.
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
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Settings): Limiter => {
  const limit = Math.max(1, Math.floor(settings.limit))
  const windowMillis = Math.max(1, Duration.toMillis(Duration.decode(settings.window)))
  // Accepted request times per key, ascending.
  const history = new Map<string, Array<number>>()
  return {
    take: (key, now) => {
      let times = history.get(key)
      if (times === undefined) {
        times = []
        history.set(key, times)
      }
      const newest = times.length === 0 ? now : Math.max(now, times[times.length - 1]!)
      let stale = 0
      while (stale < times.length && times[stale]! <= newest - 2 * windowMillis) stale++
      if (stale > 0) times.splice(0, stale)
      // Where `now` goes (after equal times), then every run of limit + 1 times that would hold it.
      let at = times.length
      while (at > 0 && times[at - 1]! > now) at--
      const n = times.length
      for (let first = Math.max(0, at - limit); first <= at && first + limit - 1 < n; first++) {
        const earliest = first === at ? now : times[first]!
        const latest = first + limit === at ? now : times[first + limit - 1]!
        if (latest - earliest < windowMillis) {
          // A request arriving after the newest is allowed once the limit-th newest leaves the window.
          const freesAt = times[n - limit]! + windowMillis
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) }
        }
      }
      times.splice(at, 0, now)
      return { allowed: true }
    }
  }
}
