/**
 * `TestClock.adjust` / `setTime` as the client's tests use them, on the simulation every `it.effect`
 * runs in (`VirtualClock`): moving the time waits until every fiber is suspended, as Effect 3's
 * TestClock did (Effect 4's waits one scheduler turn).
 */
import type { Duration, Effect } from "effect"
import * as VirtualClock from "./VirtualClock.js"

/** Moves the time on by `duration`, waking every sleeper due, in order. */
export const adjust = (
  duration: Duration.Input
): Effect.Effect<void, VirtualClock.Stalled, VirtualClock.VirtualClock> => VirtualClock.adjust(duration)

/** Moves the time on to `millis`, waking every sleeper due, in order. */
export const setTime = (millis: number): Effect.Effect<void, VirtualClock.Stalled, VirtualClock.VirtualClock> =>
  VirtualClock.setTime(millis)
