/**
 * The retry schedules of the shared internal modules, built and stepped as Effect 3 does it: the
 * Effect 4 line's module of the same name has the same exports (docs/architecture.md, "One source,
 * two lines").
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"

/** A schedule fed `In`s, read for the waits it chooses. */
export type Policy<In> = Schedule.Schedule<unknown, In>

/**
 * Exponential backoff from `baseDelay`, doubling, capped at `maxDelay`, each wait jittered to
 * 50–100 %, at most `maxRetries` retries.
 */
export const backoff = (options: {
  readonly maxRetries: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
}): Policy<unknown> =>
  Schedule.exponential(options.baseDelay, 2).pipe(
    Schedule.modifyDelay((delay) => Duration.min(delay, options.maxDelay)),
    Schedule.jitteredWith({ min: 0.5, max: 1 }),
    Schedule.intersect(Schedule.recurs(options.maxRetries))
  )

/** `base`'s waits while `keepGoing(input)`, each replaced by `wait(input, delay)`. */
export const fedWith = <In>(
  base: Schedule.Schedule<Duration.Duration>,
  keepGoing: (input: In) => boolean,
  wait: (input: In, delay: Duration.Duration) => Duration.Duration
): Policy<In> =>
  base.pipe(
    Schedule.zipRight(Schedule.identity<In>()),
    Schedule.modifyDelay(wait),
    Schedule.whileInput(keepGoing)
  )

/**
 * A stepper of `policy`, read for its decisions only: the wait it chooses after an input, or none
 * when it is done. The wait is not slept here.
 */
export const stepper = <In>(
  policy: Policy<In>
): Effect.Effect<(input: In) => Effect.Effect<Option.Option<Duration.Duration>>> =>
  Effect.map(
    // `delays` keeps the wait as the output, and the zeroed delay keeps the driver from sleeping it.
    Schedule.driver(Schedule.delays(policy).pipe(Schedule.modifyDelay(() => Duration.zero))),
    (driver) => (input) => Effect.option(driver.next(input))
  )
