/**
 * The retry schedules of the shared internal modules, built and stepped as Effect 4 does it: the
 * Effect 3 line's module of the same name has the same exports (docs/architecture.md, "One source,
 * two lines").
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Random from "effect/Random"
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
  Schedule.max([
    Schedule.exponential(options.baseDelay, 2).pipe(
      Schedule.modifyDelay(({ duration }) => jitter(Duration.min(duration, options.maxDelay)))
    ),
    Schedule.recurs(options.maxRetries)
  ])

/** A wait jittered to 50–100 % of `delay`: retries of many requests failed together do not return together. */
export const jitter = (delay: Duration.Duration): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.next, (r) => Duration.millis(Duration.toMillis(delay) * (0.5 + 0.5 * r)))

/** `base`'s waits while `keepGoing(input)`, each replaced by `wait(input, delay)`. */
export const fedWith = <In>(
  base: Schedule.Schedule<Duration.Duration>,
  keepGoing: (input: In) => boolean,
  wait: (input: In, delay: Duration.Duration) => Duration.Duration
): Policy<In> =>
  Schedule.fromStep(
    Effect.map(
      Schedule.toStep(base),
      (step) =>
      (
        now: number,
        input: In
      ): Pull.Pull<[Duration.Duration, Duration.Duration], never, Duration.Duration> => {
        if (!keepGoing(input)) return Cause.done(Duration.zero)
        return Effect.map(step(now, undefined), ([, delay]) => {
          const chosen = wait(input, delay)
          return [chosen, chosen] as [Duration.Duration, Duration.Duration]
        })
      }
    )
  )

/**
 * A stepper of `policy`, read for its decisions only: the wait it chooses after an input, or none
 * when it is done. The wait is not slept here.
 */
export const stepper = <In>(
  policy: Policy<In>
): Effect.Effect<(input: In) => Effect.Effect<Option.Option<Duration.Duration>>> =>
  Effect.map(
    Schedule.toStep(policy),
    (step) => (input) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Pull.matchEffect(step(now, input), {
          onSuccess: ([, delay]) => Effect.succeed(Option.some(delay)),
          onDone: () => Effect.succeed(Option.none<Duration.Duration>()),
          onFailure: Effect.failCause
        }))
  )
