/**
 * The budget's bound on attempts on their way while it discovers the service's limit
 * (docs/configuration.md, "Discovery"): how many are on their way and who waits for a place, kept
 * as plain values. An attempt that finds a place free takes it in one masked step, where a semaphore
 * takes about three times as many fiber steps, and the bound holds for every request of a
 * throughput-bound run; one that finds none waits its turn, first come, first served.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Effects from "../line/Effects.js"

export interface Gate {
  /**
   * Runs `effect` with one of `places` places on their way (the bound now: it may have moved since
   * the last attempt), waiting for a place when none is free. The place is given back however
   * `effect` ends; an attempt interrupted while it waits takes none.
   */
  readonly run: <A, E, R>(places: number, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const make = (): Gate => {
  let onTheirWay = 0
  let places = 0
  // The attempts waiting for a place, in the order they came.
  const waiting: Array<() => void> = []
  const admit = () => {
    while (onTheirWay < places && waiting.length > 0) {
      onTheirWay++
      waiting.shift()!()
    }
  }
  const leave = Effect.sync(() => {
    onTheirWay--
    admit()
  })
  const enter = Effects.callback<void, never>((resume) => {
    const admitted = () => resume(Effect.void)
    waiting.push(admitted)
    return Effect.sync(() => {
      const at = waiting.indexOf(admitted)
      if (at !== -1) {
        waiting.splice(at, 1)
        return
      }
      // Admitted as it was interrupted: the place goes to the next in line.
      onTheirWay--
      admit()
    })
  })
  const run = <A, E, R>(bound: number, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        places = bound
        admit()
        const held = Effect.matchCauseEffect(restore(effect), {
          onFailure: (cause) => Effect.andThen(leave, Effect.failCause(cause)),
          onSuccess: (value) => Effect.as(leave, value)
        })
        if (onTheirWay < places) {
          onTheirWay++
          return held
        }
        return Effect.andThen(restore(enter), held)
      })
    )
  return { run }
}
