/**
 * The per-API-key request budget: at most `limit` requests in any sliding `window`. A refused
 * request does not use the budget.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"

/**
 * Budget settings.
 *
 * @example
 * import type { RateLimit } from "@broker-history/server"
 * const settings: RateLimit.Settings = { limit: 500, window: "10 seconds" }
 */
export interface Settings {
  readonly limit: number
  readonly window: Duration.DurationInput
}

/**
 * The reference server's default: 500 requests per 10 seconds per key (DECISIONS.md).
 *
 * @example
 * import { RateLimit } from "@broker-history/server"
 * RateLimit.defaults.limit // 500
 */
export const defaults: Settings = { limit: 500, window: "10 seconds" }

/**
 * The outcome for one request: allowed, or refused with the whole seconds until a slot frees (≥ 1).
 *
 * @example
 * import type { RateLimit } from "@broker-history/server"
 * const refused: RateLimit.Outcome = { allowed: false, retryAfterSeconds: 3 }
 */
export type Outcome = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/**
 * A sliding-window limiter keyed by API key.
 *
 * @example
 * import { RateLimit } from "@broker-history/server"
 * const limiter = RateLimit.make({ limit: 1, window: "1 second" })
 * limiter.take("key", 0)    // { allowed: true }
 * limiter.take("key", 10)   // { allowed: false, retryAfterSeconds: 1 }
 * limiter.take("key", 1000) // { allowed: true }
 */
export interface Limiter {
  readonly take: (key: string, now: number) => Outcome
}

/**
 * Makes a limiter. Each key keeps the times of its last `limit` accepted requests; a request is
 * allowed when the oldest of them has left the window.
 *
 * @example
 * import { RateLimit } from "@broker-history/server"
 * const limiter = RateLimit.make(RateLimit.defaults)
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
