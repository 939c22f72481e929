/**
 * The per-API-key request budget, counted by arrival time in one of three shapes
 * (docs/wire-contract.md, "Ordering, windows and limits"): at most `limit` requests in any sliding
 * `window` (the default), at most `limit` per fixed `window` aligned on the epoch, or a token bucket
 * holding `limit` tokens refilled at `limit` per `window`. A refused request does not use the budget.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Limiters from "./Limiters.js"

/**
 * How a limiter counts: `sliding` (at most `limit` in any window), `fixed` (at most `limit` per
 * window aligned on the epoch: up to twice that may pass around a boundary) or `tokenBucket` (a burst
 * of `limit`, then `limit` per window, refilled continuously).
 */
export const shapes = ["sliding", "fixed", "tokenBucket"] as const

/** One of `shapes`. */
export type Shape = (typeof shapes)[number]

/**
 * Budget settings: `limit` requests per API key per `window`, counted as `shape` says (default
 * `sliding`: at most `limit` in any window).
 */
export interface Settings {
  readonly limit: number
  readonly window: Duration.DurationInput
  /** How requests are counted against `limit` (default `sliding`). */
  readonly shape?: Shape | undefined
}

/**
 * The reference server's default budget: 500 requests per 10 seconds per key (see docs/wire-contract.md, "Ordering, windows and limits").
 */
export const defaults: Settings = { limit: 500, window: "10 seconds" }

/** The outcome for one request: allowed, or refused with the whole seconds until a slot frees (at least 1). */
export type Outcome = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/**
 * A limiter keyed by API key, counting as its `Settings.shape` says; a refused request does not use
 * the budget.
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
