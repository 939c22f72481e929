// The sync database as messages name it: never its password, also in a URL that does not parse, and
// the setup sentence says what to check for its kind of database. Which values --db / BROKER_DB may
// hold: a SQLite path or a postgres:// URL, nothing that would be taken for one by mistake.
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as DatabaseName from "../../../../src/internal/sync/store/DatabaseName.js"

const password = fc.stringMatching(/^[A-Za-z0-9@:%!]{4,16}$/)

const refusal = (flag: string | undefined, variable?: string) =>
  Either.match(DatabaseName.choose(flag, variable), { onLeft: (m) => m, onRight: () => undefined })

describe("DatabaseName.describe", () => {
  it.prop("a PostgreSQL URL never shows its password, parsed or not", { password }, ({ password }) => {
    for (const db of [`postgres://u:${password}@127.0.0.1:5432/db`, `postgresql://u:${password}@[bad/db`]) {
      const named = DatabaseName.describe(db)
      expect(named).not.toContain(password)
      expect(named).toContain("u:***@")
    }
  })

  it.prop(
    "a value with any other scheme, or postgres: without //, never shows its password either",
    { password },
    ({ password }) => {
      for (
        const db of [
          `postgress://u:${password}@127.0.0.1/db`,
          `pg://u:${password}@h/db`,
          `mysql://u:${password}@h:3306/db`,
          `postgres:u:${password}@127.0.0.1/db`,
          `postgresql:/u:${password}@h/db`,
          `u:${password}@h/db`
        ]
      ) {
        expect(DatabaseName.describe(db), db).not.toContain(password)
      }
    }
  )

  it("a password in the query string is hidden too", () => {
    expect(DatabaseName.describe("postgres://u@h/db?password=hunter2&sslmode=require")).toBe(
      "postgres://u@h/db?password=***&sslmode=require"
    )
    expect(DatabaseName.describe("pg://u@h/db?PassWord=hunter2")).toBe("pg://u@h/db?PassWord=***")
  })

  it("keeps what is not secret: the scheme, the user after //, the host", () => {
    expect(DatabaseName.describe("pg://u:hunter2@h/db")).toBe("pg://u:***@h/db")
    expect(DatabaseName.describe("postgres:u:hunter2@h/db")).toBe("postgres:***@h/db")
    expect(DatabaseName.describe("sqlite:///var/lib/history.db")).toBe("sqlite:///var/lib/history.db")
  })

  it("a SQLite path and a URL without a password stay as given", () => {
    expect(DatabaseName.describe("./sync.db")).toBe("./sync.db")
    expect(DatabaseName.describe("./a:b@c.db")).toBe("./a:b@c.db")
    expect(DatabaseName.describe("postgres://u@h/db")).toBe("postgres://u@h/db")
  })
})

describe("DatabaseName.scheme", () => {
  it("a scheme is letters, digits, + - . after a first letter, up to the first colon", () => {
    expect(DatabaseName.scheme("postgres://u@h/db")).toBe("postgres")
    expect(DatabaseName.scheme("pg://h")).toBe("pg")
    expect(DatabaseName.scheme("file:history.db")).toBe("file")
    expect(DatabaseName.scheme("a:b.db")).toBe("a")
    expect(DatabaseName.scheme("svn+ssh://h")).toBe("svn+ssh")
  })

  it("a path that starts with / or ./, or has no colon before a /, has none", () => {
    for (const db of ["./a:b.db", "/var/lib/a:b.db", "history.db", "data/x:y.db", "1a:b.db", ":memory:", "-x:y"]) {
      expect(DatabaseName.scheme(db), db).toBeUndefined()
    }
  })
})

describe("DatabaseName.choose", () => {
  it("the flag wins over BROKER_DB; either alone is taken", () => {
    expect(DatabaseName.choose("a.db", "b.db")).toEqual(Either.right("a.db"))
    expect(DatabaseName.choose(undefined, "b.db")).toEqual(Either.right("b.db"))
    expect(DatabaseName.choose("./a:b.db", undefined)).toEqual(Either.right("./a:b.db"))
    expect(DatabaseName.choose("POSTGRESQL://u@h/db", undefined)).toEqual(Either.right("POSTGRESQL://u@h/db"))
  })

  it("neither, or an empty one: say which, and what to give", () => {
    expect(refusal(undefined, undefined)).toBe(
      "--db is not given and BROKER_DB is not set: give a SQLite file path (created if missing) or a PostgreSQL URL postgres://user:password@host:port/database"
    )
    expect(refusal(" ", "b.db")).toBe(
      "--db is empty: give a SQLite file path (created if missing) or a PostgreSQL URL postgres://user:password@host:port/database"
    )
    expect(refusal(undefined, "")).toMatch(/^BROKER_DB is empty: /)
  })

  it(":memory: is refused: the data would be thrown away", () => {
    for (const db of [":memory:", ":MEMORY:"]) {
      expect(refusal(db)).toBe(
        `--db ${db} is SQLite's in-memory database, thrown away when the command ends: nothing synced would be kept; give a file path (created if missing) or a PostgreSQL URL`
      )
    }
    expect(refusal(undefined, ":memory:")).toMatch(/^BROKER_DB :memory: is SQLite's in-memory database/)
  })

  it("white space around the name is refused, the password hidden", () => {
    expect(refusal(" postgres://u:hunter2@h/db")).toBe(
      "--db \" postgres://u:***@h/db\" starts or ends with white space: remove it"
    )
    expect(refusal("history.db\n")).toBe("--db \"history.db\\n\" starts or ends with white space: remove it")
  })

  it("postgres: or postgresql: without //: how to write it, the password hidden", () => {
    expect(refusal("postgres:u:hunter2@127.0.0.1/db")).toBe(
      "--db postgres:***@127.0.0.1/db: a PostgreSQL URL starts with postgres:// (two slashes); write it as postgres://user:password@host:port/database"
    )
    expect(refusal(undefined, "postgresql:/h/db")).toBe(
      "BROKER_DB postgresql:/h/db: a PostgreSQL URL starts with postgresql:// (two slashes); write it as postgresql://user:password@host:port/database"
    )
  })

  it("any other scheme is refused naming it, the password hidden", () => {
    expect(refusal("postgress://u:hunter2@127.0.0.1/db")).toBe(
      "--db postgress://u:***@127.0.0.1/db: the URL scheme postgress: is not supported; write a PostgreSQL database as postgres://user:password@host:port/database and a SQLite database as a file path (./name if the name has a colon)"
    )
    for (const db of ["pg://u:hunter2@h/db", "mysql://u@h/db", "sqlite:///tmp/x.db", "file:x.db", "a:b.db"]) {
      const message = refusal(db)!
      expect(message, db).toContain(`the URL scheme ${db.slice(0, db.indexOf(":") + 1)} is not supported`)
      expect(message).not.toContain("hunter2")
    }
  })

  it("a postgres:// URL that does not parse: how to write it, the password hidden", () => {
    expect(refusal("postgres://u:se@cret@[bad/db")).toBe(
      "--db postgres://u:***@[bad/db is not a valid URL: write it as postgres://user:password@host:port/database (percent-encode special characters in the password)"
    )
  })
})

describe("DatabaseName.reason", () => {
  const sqlError = (message: string, cause: unknown) => Object.assign(new Error(message), { cause })

  it("the innermost message of the cause chain, one line, without its period", () => {
    expect(DatabaseName.reason(sqlError("Failed to execute statement", new Error("database is locked.")))).toBe(
      "database is locked"
    )
    expect(
      DatabaseName.reason(
        sqlError("PgClient: Failed to connect", new Error("password authentication failed\n for user \"x\""))
      )
    ).toBe("password authentication failed for user \"x\"")
    expect(DatabaseName.reason("plain text")).toBe("plain text")
  })

  it("an AggregateError without a message: its errors' messages", () => {
    const refused = new AggregateError([
      new Error("connect ECONNREFUSED ::1:1"),
      new Error("connect ECONNREFUSED 127.0.0.1:1")
    ])
    expect(DatabaseName.reason(sqlError("PgClient: Failed to connect", refused))).toBe(
      "connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1"
    )
  })

  it("bounded in length, and never a password: a URL's or a given secret", () => {
    const long = DatabaseName.reason(new Error("x".repeat(1000)))
    expect(long.length).toBeLessThanOrEqual(200)
    expect(long.endsWith("…")).toBe(true)
    expect(DatabaseName.reason(new Error("cannot reach postgres://u:hunter2@h/db"))).toBe(
      "cannot reach postgres://u:***@h/db"
    )
    expect(DatabaseName.reason(new Error("bad password hunter2 given"), ["hunter2", ""])).toBe(
      "bad password *** given"
    )
  })
})

describe("DatabaseName.setupMessage", () => {
  it("SQLite: the driver's reason without its period, and the directory to check", () => {
    expect(DatabaseName.setupMessage("/no/dir/sync.db", new Error("unable to open database file."))).toBe(
      "cannot open the SQLite database /no/dir/sync.db (unable to open database file); check --db or BROKER_DB (the directory must exist and be writable)"
    )
  })

  it("PostgreSQL: the underlying reason and the connection to check, without the password", () => {
    const error = Object.assign(new Error("PgClient: Failed to connect"), {
      cause: new Error("password authentication failed for user \"sync\" (hunter2)")
    })
    const message = DatabaseName.setupMessage("postgres://sync:hunter2@127.0.0.1:1/db", error)
    expect(message).toBe(
      "cannot open the PostgreSQL database postgres://sync:***@127.0.0.1:1/db (password authentication failed for user \"sync\" (***)); check --db or BROKER_DB (host, port, user, password or PGPASSWORD, database) and that PostgreSQL is running"
    )
  })

  it("PostgreSQL asks for a password and none was given: said so, not the driver's SASL text", () => {
    const error = Object.assign(new Error("PgClient: Failed to connect"), {
      cause: new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string")
    })
    expect(DatabaseName.setupMessage("postgres://sync@127.0.0.1/db", error)).toBe(
      "cannot open the PostgreSQL database postgres://sync@127.0.0.1/db (the server asks for a password and none was given: put it in the URL or in PGPASSWORD); check --db or BROKER_DB (host, port, user, password or PGPASSWORD, database) and that PostgreSQL is running"
    )
  })

  it("a PostgreSQL URL that does not parse, or another scheme: how to write it", () => {
    expect(DatabaseName.setupMessage("pg://u:hunter2@h/db", "ignored")).toMatch(
      /^cannot open the database: the name pg:\/\/u:\*\*\*@h\/db: the URL scheme pg: is not supported;/
    )
    const message = DatabaseName.setupMessage("postgres://u:se@cret@[bad/db", "ignored")
    expect(message).toMatch(
      /^cannot open the database: the name postgres:\/\/u:\*\*\*@\[bad\/db is not a valid URL: write it as postgres:\/\//
    )
    expect(message).not.toContain("cret")
  })
})
