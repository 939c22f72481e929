/** What a `Schedule` decides, read without waiting: the tests' view of a retry policy. */
import { Duration, Effect, Pull, Schedule } from "effect"

/**
 * The delays (ms) `schedule` chooses for `inputs` one after the other, stepped at time 0 without
 * sleeping, up to where it ends.
 */
export const delaysOf = <Out, In>(
  schedule: Schedule.Schedule<Out, In>,
  inputs: Iterable<In>
): Effect.Effect<Array<number>> =>
  Effect.gen(function*() {
    const step = yield* Schedule.toStep(schedule)
    const delays: Array<number> = []
    for (const input of inputs) {
      const next = yield* Pull.matchEffect(step(0, input), {
        onSuccess: ([, delay]) => Effect.succeed<number | undefined>(Duration.toMillis(delay)),
        onDone: () => Effect.succeed(undefined),
        onFailure: Effect.failCause
      })
      if (next === undefined) break
      delays.push(next)
    }
    return delays
  })
