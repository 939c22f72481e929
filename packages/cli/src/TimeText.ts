/**
 * Times and durations as people type them: `2024-01-01`, `2024-01-01T12:00:00Z`, Unix ms, `90d`
 * (that long ago) for dates; `30s`, `5m`, `1h`, `500ms` or Effect's `"30 seconds"` for durations.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"

const units: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000
}

const short = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h|d|w|y)$/

/**
 * A duration: `30s`, `5m`, `1h`, `2d`, `500ms`, or Effect duration text (`"30 seconds"`).
 *
 * @example
 * import { TimeText } from "@broker-history/cli"
 * TimeText.duration("30s") // Either.right(Duration.seconds(30))
 */
export const duration = (text: string): Either.Either<Duration.Duration, string> => {
  const trimmed = text.trim()
  const m = short.exec(trimmed)
  if (m !== null) return Either.right(Duration.millis(Math.round(Number(m[1]) * units[m[2]])))
  const decoded = Duration.decodeUnknown(trimmed)
  if (decoded._tag === "Some" && Duration.isFinite(decoded.value)) return Either.right(decoded.value)
  return Either.left(`${JSON.stringify(text)} is not a duration (examples: 30s, 5m, 1h, 2d, 500ms)`)
}

/**
 * A point in time as Unix ms: an ISO date (`2024-01-01`, UTC midnight) or date-time, Unix ms
 * digits, or a duration meaning that long before `now` (`90d`).
 *
 * @example
 * import { TimeText } from "@broker-history/cli"
 * TimeText.instant("2024-01-01", Date.now()) // Either.right(1704067200000)
 */
export const instant = (text: string, now: number): Either.Either<number, string> => {
  const trimmed = text.trim()
  if (/^\d{10,}$/.test(trimmed)) return Either.right(Number(trimmed))
  if (/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) {
    // A date or date-time without a zone is UTC, as the service's times are.
    const iso = /[T ][0-9:.]+$/.test(trimmed) ? trimmed.replace(" ", "T") + "Z" : trimmed.replace(" ", "T")
    const ms = Date.parse(iso.length === 10 ? iso + "T00:00:00Z" : iso)
    if (Number.isFinite(ms) && ms >= 0) return Either.right(ms)
  }
  const ago = short.exec(trimmed)
  if (ago !== null) return Either.right(Math.max(0, now - Math.round(Number(ago[1]) * units[ago[2]])))
  return Either.left(
    `${JSON.stringify(text)} is not a date (examples: 2024-01-01, 2024-01-01T12:00:00Z, 1704067200000, 90d)`
  )
}
