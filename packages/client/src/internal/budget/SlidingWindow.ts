/**
 * The sliding-window budget of `@broker-history/core/budget/SlidingWindow` on the Effect clock: a
 * caller reserves its slot, sleeps until it, and takes a slot again when its own was withdrawn.
 *
 * @internal
 */
import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** An attempt's slot (see core). */
export type Start = SlidingWindow.Start

/** The pace at one moment (see core). */
export type Pace = SlidingWindow.Pace

/** Waits for a slot and returns how long it waited (ms). Callers are served in arrival order. */
export type Take = Effect.Effect<number>

/** The core window, and `take`: waits for a slot under the pace `pace(now)` gives, in arrival order. */
export interface Window extends Omit<SlidingWindow.Window, "reserve" | "woke"> {
  readonly take: (pace: (now: number) => Pace) => Effect.Effect<Start>
}

/**
 * Waits for a slot of `window` under `pace`. A caller whose slot was withdrawn while it slept
 * reserves again; its wait so far counts in the start it gets.
 */
export const take = (window: SlidingWindow.Window, pace: (now: number) => Pace): Effect.Effect<Start> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const reservation = window.reserve(pace, now)
    if (reservation.wait <= 0) return Effect.succeed({ at: reservation.at, waited: 0, slot: reservation.slot })
    return Effect.andThen(
      Effect.sleep(Duration.millis(reservation.wait)),
      Effect.flatMap(Clock.currentTimeMillis, (woke): Effect.Effect<Start> => {
        const start = window.woke(reservation, woke)
        return start !== undefined
          ? Effect.succeed(start)
          : Effect.map(take(window, pace), (again) => ({ ...again, waited: reservation.wait + again.waited }))
      })
    )
  })

/** A window remembering `capacity` attempts (`capacity` ≥ every `Pace.count` it is given). */
export const makeWindow = (capacity: number): Effect.Effect<Window> =>
  Effect.sync(() => {
    const window = SlidingWindow.make(capacity)
    return { ...window, take: (pace) => take(window, pace) }
  })

/** A fixed budget: at most `limit` starts in any `interval`. */
export const make = (limit: number, interval: Duration.Duration): Effect.Effect<Take> =>
  Effect.map(makeWindow(limit), (window) => {
    const pace: Pace = { count: limit, spanMillis: Duration.toMillis(interval), notBefore: 0, gapMillis: 0, catchUp: 0 }
    const fixed = () => pace
    return Effect.map(window.take(fixed), (start) => start.waited)
  })
