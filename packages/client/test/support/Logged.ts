/** Every log line of an effect, debug included, kept as data for the tests to read. */
import { Effect, HashMap, List, Logger, LogLevel } from "effect"

/** A log line: its level in capitals, its message, its annotations. */
export interface Line {
  readonly level: string
  readonly message: string
  readonly annotations: Record<string, unknown>
}

/** Every log line, debug included, kept as level, message and annotations. */
export const logged = (lines: Array<Line>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ annotations, logLevel, message }) => {
        lines.push({
          level: logLevel.label,
          message: List.isList(message) ? "" : Array.isArray(message) ? message.join(" ") : String(message),
          annotations: Object.fromEntries(HashMap.toEntries(annotations))
        })
      })
    )),
    Logger.withMinimumLogLevel(LogLevel.Debug)
  )
