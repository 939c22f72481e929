/**
 * Times and durations as people type them: `2024-01-01`, `2024-01-01T12:00:00Z`, Unix ms, `90d`
 * (that long ago) for dates; `30s`, `5m`, `1h`, `500ms` or Effect's `"30 seconds"` for durations.
 *
 * @internal
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

/** Reads a duration: `30s`, `5m`, `1h`, `2d`, `500ms`, or Effect duration text (`"30 seconds"`). */
export const duration = (text: string): Either.Either<Duration.Duration, string> => {
  const trimmed = text.trim()
  const m = short.exec(trimmed)
  if (m !== null) return Either.right(Duration.millis(Math.round(Number(m[1]) * units[m[2]])))
  const decoded = Duration.decodeUnknown(trimmed)
  if (decoded._tag === "Some" && Duration.isFinite(decoded.value)) return Either.right(decoded.value)
  return Either.left(`${JSON.stringify(text)} is not a duration (examples: 30s, 5m, 1h, 2d, 500ms)`)
}

/**
 * A duration as Effect duration text (`"2000 millis"`), the form the client's `BROKER_*` duration
 * variables are read in, so that every duration flag and variable takes the same syntax.
 */
export const durationText = (duration: Duration.Duration): string => `${Duration.toMillis(duration)} millis`

const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** An ISO date or date-time read exactly: a field out of its range is refused, never rolled over. */
const calendar = (text: string): Either.Either<number, string> | undefined => {
  const m = isoDate.exec(text)
  if (m === null) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
    return Either.left(`${JSON.stringify(text)}: no such date or time of day (check the month, day and time)`)
  }
  const millis = Number((m[7] ?? "0").padEnd(3, "0"))
  // A date or date-time without a zone is UTC, as the service's times are.
  const zone = m[8] ?? "Z"
  const offset = zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) *
    (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * 60_000
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset
  return ms >= 0 ? Either.right(ms) : Either.left(`${JSON.stringify(text)} is before 1970-01-01 (Unix ms 0)`)
}

/**
 * Reads a point in time as Unix ms: an ISO date (UTC midnight) or date-time (UTC unless it names a
 * zone), Unix ms digits (`0` included), or a duration meaning that long before `now` (`90d`). An
 * impossible date (`2026-02-30`) is refused, not rolled over. Digits are Unix ms whatever their
 * number, with two exceptions that are refused with what to write instead: a value of ten digits
 * (`1000000000` to `9999999999`) is Unix seconds (2001 to 2286; as ms it would be a time in 1970),
 * and eight digits that read as a date (`20240101`: write `2024-01-01`).
 */
export const instant = (text: string, now: number): Either.Either<number, string> => {
  const trimmed = text.trim()
  if (/^\d+$/.test(trimmed)) {
    // Eight digits that read as a date (20240101) are far more likely meant as one than as a time
    // on 1970-01-01: refuse rather than guess.
    const compact = /^(19|2\d)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(trimmed)
    if (compact) {
      return Either.left(
        `${JSON.stringify(text)} is ambiguous: write ${trimmed.slice(0, 4)}-${trimmed.slice(4, 6)}-${
          trimmed.slice(6)
        } for that date (Unix ms this small would be on 1970-01-01)`
      )
    }
    const value = Number(trimmed)
    // Ten digits are Unix seconds from 2001 to 2286 (what `date +%s` prints), which read as Unix ms
    // would be a time in the first months of 1970: refuse rather than read another instant.
    if (value >= 1e9 && value < 1e10) {
      return Either.left(
        `${JSON.stringify(text)} looks like Unix seconds (${new Date(value * 1000).toISOString()}): write ${
          value * 1000
        } for Unix ms (ten digits are refused, as Unix ms they would be a time in 1970)`
      )
    }
    return Either.right(value)
  }
  const date = calendar(trimmed)
  if (date !== undefined) return date
  const ago = short.exec(trimmed)
  if (ago !== null) return Either.right(Math.max(0, now - Math.round(Number(ago[1]) * units[ago[2]])))
  return Either.left(
    `${JSON.stringify(text)} is not a date (examples: 2024-01-01, 2024-01-01T12:00:00Z, 1704067200000, 90d)`
  )
}
