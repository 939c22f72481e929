/**
 * A sliding-window request budget: at most `limit` attempts start within any `interval`. Unlike a
 * token bucket (which allows a full burst plus its refills in the first interval), this never
 * exceeds the budget over any window, so a client set to the service's own limit gets no 429s.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** Waits for a slot and returns how long it waited (ms). Callers are served in arrival order. */
export type Take = Effect.Effect<number>

export const make = (limit: number, interval: Duration.Duration): Effect.Effect<Take> =>
  Effect.map(Effect.makeSemaphore(1), (mutex) => {
    const intervalMillis = Duration.toMillis(interval)
    // Start times of the last `limit` attempts, as a ring: starts[head] is the oldest.
    const starts = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY)
    let head = 0
    return mutex.withPermits(1)(
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const wait = starts[head]! + intervalMillis - now
        if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
        starts[head] = wait > 0 ? now + wait : now
        head = (head + 1) % limit
        return Math.max(0, wait)
      })
    )
  })
