/** Every log line of an effect, debug included, kept as data for the tests to read. */
import { Effect, Logger, References } from "effect"

/** A log line: its level in capitals, its message, its annotations. */
export interface Line {
  readonly level: string
  readonly message: string
  readonly annotations: Record<string, unknown>
}

/** Every log line, debug included, kept as level, message and annotations. */
export const logged = (lines: Array<Line>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Logger.layer([
      Logger.make(({ fiber, logLevel, message }) => {
        lines.push({
          level: logLevel.toUpperCase(),
          message: Array.isArray(message) ? message.join(" ") : String(message),
          annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
        })
      })
    ])),
    Effect.provideService(References.MinimumLogLevel, "Debug")
  )
