/**
 * How a request waits out a refusal's `Retry-After`. By default in place; a caller that bounds its
 * requests in flight with a semaphore (the walk fetching windows ahead) lends its permit for the wait,
 * so that a burst of refusals does not hold every slot idle for a second while the budget has room
 * (docs/configuration.md, "Adaptive rate").
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Effects from "../line/Effects.js"

/** Wraps the wait of a refused request before its retry. */
export type Wait = (wait: Effect.Effect<void>) => Effect.Effect<void>

/** The wait of the current fiber: in place unless a caller lends its permit (`lending`). */
export const current: Effects.Reference<Wait> = Effects.makeReference<Wait>(
  "@broker-history/client/internal/request/RetryWait/current",
  identity
)

/** `wait` as the current fiber makes it. */
export const waiting = (wait: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(Effects.getReference(current), (w) => w(wait))

/**
 * Runs `effect` with one permit of `semaphore`, given back while a request in it waits out a
 * `Retry-After` and taken again (in turn) before the request is retried.
 */
export const lending =
  (semaphore: Effects.Semaphore) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      let held = false
      const take = Effect.uninterruptibleMask((restore) =>
        Effect.andThen(
          restore(Effects.take(semaphore, 1)),
          Effect.sync(() => {
            held = true
          })
        )
      )
      const give = Effect.suspend(() => {
        if (!held) return Effect.void
        held = false
        return Effect.asVoid(Effects.release(semaphore, 1))
      })
      const lend: Wait = (wait) => Effect.andThen(Effect.uninterruptible(give), Effect.andThen(wait, take))
      return Effect.acquireUseRelease(take, () => Effects.provideReference(effect, current, lend), () => give)
    })

/** The bounds of a stream fetching windows ahead (`makeAhead`). */
export interface Ahead {
  /** Waits until one more window may be planned: at most `concurrency` planned and not waiting. */
  readonly plan: Effect.Effect<void>
  /**
   * Runs the request of a window `plan` admitted, with one of `concurrency` permits in flight; while
   * it waits out a `Retry-After` it gives back that permit and its planned place, so another window
   * is planned and fetched meanwhile; its place is back when it ends.
   */
  readonly fetch: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * The bounds of a stream fetching `concurrency` windows ahead: a burst of refusals does not leave it
 * idle while its windows wait out their `Retry-After`, and it plans no further ahead than before
 * (docs/streams.md, the `concurrency` option).
 */
export const makeAhead = (concurrency: number): Effect.Effect<Ahead> =>
  Effect.map(
    Effect.all([Effects.makeSemaphore(concurrency), Effects.makeSemaphore(concurrency)]),
    ([inFlight, planned]): Ahead => ({
      plan: Effect.asVoid(Effects.take(planned, 1)),
      fetch: (effect) =>
        Effect.suspend(() => {
          let placed = true
          const leave = Effect.suspend(() => {
            if (!placed) return Effect.void
            placed = false
            return Effect.asVoid(Effects.release(planned, 1))
          })
          // Inside `lending`, whose own wait gives back the permit in flight: leave the planned place first.
          const leaving = Effect.flatMap(
            Effects.getReference(current),
            (lent) =>
              Effects.provideReference(
                effect,
                current,
                (wait) => Effect.andThen(Effect.uninterruptible(leave), lent(wait))
              )
          )
          return Effect.ensuring(lending(inFlight)(leaving), leave)
        })
    })
  )
