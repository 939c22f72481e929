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
  Effect.sync(() => {
    const intervalMillis = Duration.toMillis(interval)
    // Start times of the last `limit` attempts, as a ring: starts[head] is the oldest.
    const starts = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY)
    let head = 0
    // A caller reserves its start time in one synchronous step (no lock, no fiber suspension on the
    // fast path), then sleeps until it: reservations are made in arrival order, and the slot of a
    // caller interrupted while waiting stays taken, which only ever errs on the side of fewer requests.
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const slot = head
      const at = Math.max(now, starts[slot]! + intervalMillis)
      starts[slot] = at
      head = (head + 1) % limit
      const wait = at - now
      if (wait <= 0) return Effect.succeed(0)
      return Effect.zipRight(
        Effect.sleep(Duration.millis(wait)),
        Effect.map(Clock.currentTimeMillis, (woke) => {
          // Woken late (a busy event loop, a long collection): the attempt starts when it actually
          // does, and the window counts that, or the attempt `limit` places later could start less
          // than `interval` after it. (Unless the slot was reserved again meanwhile.)
          if (woke > at && starts[slot] === at) starts[slot] = woke
          return wait
        })
      )
    })
  })
