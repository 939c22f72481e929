/**
 * Whether a database failure is about availability (the server restarting or down, the connection
 * lost, SQLite's file locked by another writer), which a follower waits out, or anything else (a
 * schema, permission or constraint problem, a refused statement), which no wait fixes. Pure: the
 * error in, the verdict or a one-line description out.
 *
 * @internal
 */
import * as DatabaseName from "./DatabaseName.js"

/** Node's socket errors of a connection that could not be made or was lost. */
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN"
])

/**
 * PostgreSQL's SQLSTATEs about availability: the server shutting down or starting up (57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), at its connection limit (53300)
 * or the connection failing (class 08).
 */
const isUnavailableSqlState = (code: string): boolean =>
  code === "57P01" || code === "57P02" || code === "57P03" || code === "53300" || /^08[0-9A-Z]{3}$/.test(code)

/** The messages of a lost connection that carry no code (node-postgres and pg-pool write these). */
const lostConnection =
  /connection terminated|connection lost|server closed the connection|timeout exceeded when trying to connect|connection timed out|database is locked|database is busy/i

const fieldOf = (u: unknown, key: string): unknown =>
  typeof u === "object" && u !== null && key in u ? (u as Record<string, unknown>)[key] : undefined

/** The error and the errors it wraps (`cause`, an `AggregateError`'s `errors`), at most a few levels deep. */
const chain = (error: unknown): ReadonlyArray<unknown> => {
  const seen: Array<unknown> = []
  const visit = (u: unknown, depth: number) => {
    if (u === undefined || u === null || depth > 4 || seen.includes(u)) return
    seen.push(u)
    visit(fieldOf(u, "cause"), depth + 1)
    const errors = fieldOf(u, "errors")
    if (Array.isArray(errors)) { for (const e of errors) visit(e, depth + 1) }
  }
  visit(error, 0)
  return seen
}

/** A PostgreSQL SQLSTATE: five characters, its class a digit pair or one of F0, HV, P0, XX. */
const isSqlState = (code: string): boolean => /^([0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/.test(code)

/**
 * True when a database failure (an `SqlError`, or anything it wraps) is about availability: a
 * connection refused, reset or terminated, PostgreSQL shutting down, starting up or out of
 * connections (57P01, 57P02, 57P03, 53300, class 08), SQLite busy (`SQLITE_BUSY`, "database is
 * locked"). Everything else (a missing table, a permission, a constraint, a bad statement) is
 * permanent.
 */
export const isTransient = (error: unknown): boolean => {
  const all = chain(error)
  for (const u of all) {
    const code = fieldOf(u, "code")
    if (typeof code !== "string") continue
    if (connectionCodes.has(code)) return true
    // SQLite: SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, …): another connection writes.
    if (code.startsWith("SQLITE_BUSY")) return true
    // A failure with an SQLSTATE is judged by it alone: "permission denied" (42501) is permanent.
    if (isSqlState(code)) return isUnavailableSqlState(code)
  }
  return all.some((u) => {
    const message = fieldOf(u, "message")
    return typeof message === "string" && lostConnection.test(message)
  })
}

/**
 * The failure in one line for a log: `DatabaseName.reason` (the innermost message, bounded, no
 * password) with the innermost code when the text does not show it (a PostgreSQL error's SQLSTATE, a
 * socket error's code, `SQLITE_BUSY`).
 */
export const describe = (error: unknown): string => {
  const text = DatabaseName.reason(error)
  const codes = chain(error).map((u) => fieldOf(u, "code")).filter((c): c is string => typeof c === "string")
  const code = codes[codes.length - 1]
  return code === undefined || text.includes(code) ? text : `${text} (${code})`
}
