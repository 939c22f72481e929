/**
 * The per-API-key request budget: at most `limit` requests in any sliding `window`. A refused
 * request does not use the budget.
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
  readonly take: (key: string, now: number) => Outcome
}

/**
 * Makes a limiter: each key keeps the times of its last `limit` accepted requests, and a request is
 * allowed once the oldest of them has left the window.
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * const limiter = RateLimit.make(RateLimit.defaults)
 * const first = Array.from({ length: 501 }, (_, i) => limiter.take("key", i))
 * assert.ok(first.slice(0, 500).every((outcome) => outcome.allowed))
 * assert.deepStrictEqual(first[500], { allowed: false, retryAfterSeconds: 10 })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Settings): Limiter => {
  const limit = Math.max(1, Math.floor(settings.limit))
  const windowMillis = Math.max(1, Duration.toMillis(Duration.decode(settings.window)))
  // Ring buffers of accepted request times, one per key.
  const history = new Map<string, { readonly times: Array<number>; next: number }>()
  return {
    take: (key, now) => {
      let entry = history.get(key)
      if (entry === undefined) {
        entry = { times: [], next: 0 }
        history.set(key, entry)
      }
      if (entry.times.length < limit) {
        entry.times.push(now)
        return { allowed: true }
      }
      const oldest = entry.times[entry.next]!
      const freesAt = oldest + windowMillis
      if (now < freesAt) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) }
      }
      entry.times[entry.next] = now
      entry.next = (entry.next + 1) % limit
      return { allowed: true }
    }
  }
}
