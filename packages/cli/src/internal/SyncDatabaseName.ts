/**
 * The sync database as `--db` names it: which kind it is, how messages name it (never with its
 * password), and the sentence of a database that cannot be opened. Pure: text in, text out.
 *
 * @internal
 */

/** True for a PostgreSQL URL (`postgres://` or `postgresql://`); anything else is a SQLite file path. */
export const isPostgres = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db)

/**
 * The URL's password replaced by `***`, by its text alone: also for a URL that does not parse. Up to
 * the last `@`, so that a password with an unencoded `@` never shows in part.
 */
const hidePassword = (db: string): string => db.replace(/^([a-z]+:\/\/[^:/@]*:).*@/i, "$1***@")

const parses = (db: string): boolean => {
  try {
    new URL(db)
    return true
  } catch {
    return false
  }
}

/** The database named for messages, without its password (also in a URL that does not parse). */
export const describe = (db: string): string => {
  if (!isPostgres(db)) return db
  if (!parses(db)) return hidePassword(db)
  const url = new URL(db)
  if (url.password !== "") url.password = "***"
  return url.toString()
}

/**
 * Why `db` could not be opened, in one sentence: a PostgreSQL URL that does not parse, or the
 * driver's message (its final period dropped) with what to check for that kind of database.
 */
export const setupMessage = (db: string, error: unknown): string =>
  isPostgres(db) && !parses(db)
    ? `cannot open the PostgreSQL database ${
      describe(db)
    }: --db is not a valid URL; write it as postgres://user:password@host:port/database (percent-encode special characters in the password)`
    : `cannot open ${isPostgres(db) ? "the PostgreSQL database" : "the SQLite database"} ${describe(db)} (${
      String((error as { message?: unknown })?.message ?? error).replace(/\.\s*$/, "")
    }); check --db${
      isPostgres(db)
        ? " (host, port, user, password, database) and that PostgreSQL is running"
        : " (the directory must exist and be writable)"
    }`
