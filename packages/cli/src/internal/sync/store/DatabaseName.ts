/**
 * The sync database as `--db` (or `BROKER_DB`) names it: which values are taken (a SQLite file path
 * or a `postgres://` URL) and which are refused before anything is created, which kind it is, how
 * messages name it (never with a password), and the sentence of a database that cannot be opened or
 * fails. Pure: text in, text out.
 *
 * @internal
 */
import * as Either from "effect/Either"

/** True for a PostgreSQL URL (`postgres://` or `postgresql://`); anything else is a SQLite file path. */
export const isPostgres = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db)

/**
 * The URL scheme `db` starts with, if any: a letter, then letters, digits, `+`, `-` or `.`, then a
 * colon (RFC 3986). So `pg://…`, `file:x.db` and also `a:b.db` have one; a path that starts with `/`,
 * `./` or a digit, or whose first colon comes after a `/`, has none (`./a:b.db` is a SQLite file).
 */
export const scheme = (db: string): string | undefined => /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(db)?.[1]

const example = "postgres://user:password@host:port/database"
const give = `give a SQLite file path (created if missing) or a PostgreSQL URL ${example}`

/** A query parameter whose name says it holds a password (`password`, `sslpassword`, …) keeps only its name. */
const hideQueryPasswords = (text: string): string => text.replace(/([?&][^=&#]*password=)[^&#]*/gi, "$1***")

/**
 * A value with a scheme, its credentials hidden by its text alone (it need not parse): after `//`
 * the user stays and what follows its first `:` up to the last `@` is hidden; without `//` everything
 * up to the last `@` is hidden, since `user:password@` may then be taken for the scheme and a path.
 */
const hideCredentials = (db: string): string => {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:)(\/\/)?(.*)$/s.exec(db)
  if (match === null) return db
  const [, head, slashes = "", rest] = match
  const at = rest.lastIndexOf("@")
  if (at < 0) return hideQueryPasswords(db)
  const userinfo = rest.slice(0, at)
  const colon = userinfo.indexOf(":")
  const shown = slashes === "" ? "***" : colon < 0 ? userinfo : `${userinfo.slice(0, colon)}:***`
  return hideQueryPasswords(`${head}${slashes}${shown}${rest.slice(at)}`)
}

const parses = (db: string): boolean => URL.canParse(db)

/** The database named for messages, without its password (also in a URL that does not parse). */
export const describe = (db: string): string => {
  // White space before a URL (a value refused for it) must not hide the URL from the masking.
  const lead = /^\s*/.exec(db)![0]
  if (lead !== "") return lead + describe(db.slice(lead.length))
  if (scheme(db) === undefined) return db
  if (!isPostgres(db) || !parses(db)) return hideCredentials(db)
  const url = new URL(db)
  if (url.password !== "") url.password = "***"
  return hideQueryPasswords(url.toString())
}

/**
 * What is wrong with `db` as a database name, or `undefined` when it is a SQLite path or a
 * `postgres://` URL that parses; `source` names where it came from (`--db`, `BROKER_DB`). Checked
 * before anything is opened: no file is created for a value refused here.
 */
export const problem = (db: string, source: string): string | undefined => {
  if (db.trim() === "") return `${source} is empty: ${give}`
  if (db.trim() !== db) return `${source} ${JSON.stringify(describe(db))} starts or ends with white space: remove it`
  // SQLite keeps `:memory:` in memory only: a sync into it would report success and keep nothing.
  if (db.toLowerCase() === ":memory:") {
    return `${source} ${db} is SQLite's in-memory database, thrown away when the command ends: nothing synced would be kept; give a file path (created if missing) or a PostgreSQL URL`
  }
  const name = scheme(db)
  if (name === undefined) return undefined
  const shown = describe(db)
  if (/^postgres(ql)?$/i.test(name)) {
    if (!isPostgres(db)) {
      return `${source} ${shown}: a PostgreSQL URL starts with ${name}:// (two slashes); write it as ${name}://user:password@host:port/database`
    }
    if (!parses(db)) {
      return `${source} ${shown} is not a valid URL: write it as ${example} (percent-encode special characters in the password)`
    }
    return undefined
  }
  return `${source} ${shown}: the URL scheme ${name}: is not supported; write a PostgreSQL database as ${example} and a SQLite database as a file path (./name if the name has a colon)`
}

/**
 * The database of a sync: `--db` when given, else the `BROKER_DB` variable, checked (`problem`); or
 * the one sentence saying what to give.
 */
export const choose = (flag: string | undefined, variable: string | undefined): Either.Either<string, string> => {
  if (flag === undefined && variable === undefined) {
    return Either.left(`--db is not given and BROKER_DB is not set: ${give}`)
  }
  const [db, source] = flag !== undefined ? [flag, "--db"] : [variable!, "BROKER_DB"]
  const wrong = problem(db, source)
  return wrong === undefined ? Either.right(db) : Either.left(wrong)
}

const fieldOf = (u: unknown, key: string): unknown =>
  typeof u === "object" && u !== null && key in u ? (u as Record<string, unknown>)[key] : undefined

const messageOf = (u: unknown): string => {
  const message = fieldOf(u, "message")
  if (typeof message === "string" && message.trim() !== "") return message
  // An AggregateError (a host with several addresses, each refused) has no message of its own.
  const errors = fieldOf(u, "errors")
  if (Array.isArray(errors) && errors.length > 0) return [...new Set(errors.map(messageOf))].join("; ")
  return typeof u === "string" ? u : ""
}

const maxReason = 200

/**
 * Why a database operation failed, for the one line on stderr: the innermost message of the error's
 * `cause` chain (drivers wrap the reason: `Failed to execute statement` around `database is locked`,
 * `PgClient: Failed to connect` around `password authentication failed for user "x"`), on one line,
 * without its final period, at most 200 characters, with any URL's password and each of `secrets`
 * replaced by `***`.
 */
export const reason = (error: unknown, secrets: ReadonlyArray<string | undefined> = []): string => {
  let text = ""
  for (let u: unknown = error, depth = 0; u !== undefined && u !== null && depth < 8; depth++) {
    const message = messageOf(u)
    if (message !== "") text = message
    u = fieldOf(u, "cause")
  }
  if (text === "") text = String(error)
  text = text.replace(/\s+/g, " ").trim().replace(/\.$/, "")
  text = text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@]*@/g, "$1***@")
  for (const secret of secrets) {
    if (secret !== undefined && secret !== "") text = text.split(secret).join("***")
  }
  return text.length > maxReason ? `${text.slice(0, maxReason - 1)}…` : text
}

/** The passwords `db` holds, raw and decoded, for `reason` to hide. */
export const secretsOf = (db: string): ReadonlyArray<string> => {
  if (!isPostgres(db) || !parses(db)) return []
  const url = new URL(db)
  const all = [url.password, url.searchParams.get("password") ?? ""]
  try {
    all.push(decodeURIComponent(url.password))
  } catch {
    // A password that is not valid percent-encoding is hidden as written.
  }
  return all.filter((s) => s !== "")
}

/**
 * Why `db` could not be opened, in one sentence: a URL `problem` refuses, or the driver's reason
 * (`reason`) with what to check for that kind of database. `pgPassword` (`PGPASSWORD`) is hidden too.
 */
export const setupMessage = (db: string, error: unknown, pgPassword?: string): string => {
  const wrong = scheme(db) === undefined ? undefined : problem(db, "the name")
  if (wrong !== undefined) return `cannot open the database: ${wrong}`
  const why = reason(error, [...secretsOf(db), pgPassword])
  return `cannot open ${isPostgres(db) ? "the PostgreSQL database" : "the SQLite database"} ${describe(db)} (${
    // node-postgres says only this when the server asks for a password and it has none.
    /client password must be a string/.test(why)
      ? "the server asks for a password and none was given: put it in the URL or in PGPASSWORD"
      : why}); check --db or BROKER_DB${
    isPostgres(db)
      ? " (host, port, user, password or PGPASSWORD, database) and that PostgreSQL is running"
      : " (the directory must exist and be writable)"
  }`
}
