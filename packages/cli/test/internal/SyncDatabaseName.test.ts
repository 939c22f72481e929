// The sync database as messages name it: never its password, also in a URL that does not parse, and
// the setup sentence says what to check for its kind of database.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as SyncDatabaseName from "../../src/internal/SyncDatabaseName.js"

const password = fc.stringMatching(/^[A-Za-z0-9@:%!]{4,16}$/)

describe("SyncDatabaseName.describe", () => {
  it.prop("a PostgreSQL URL never shows its password, parsed or not", { password }, ({ password }) => {
    for (const db of [`postgres://u:${password}@127.0.0.1:5432/db`, `postgresql://u:${password}@[bad/db`]) {
      const named = SyncDatabaseName.describe(db)
      expect(named).not.toContain(password)
      expect(named).toContain("u:***@")
    }
  })

  it("a SQLite path and a URL without a password stay as given", () => {
    expect(SyncDatabaseName.describe("./sync.db")).toBe("./sync.db")
    expect(SyncDatabaseName.describe("postgres://u@h/db")).toBe("postgres://u@h/db")
  })
})

describe("SyncDatabaseName.setupMessage", () => {
  it("SQLite: the driver's reason without its period, and the directory to check", () => {
    expect(SyncDatabaseName.setupMessage("/no/dir/sync.db", new Error("unable to open database file."))).toBe(
      "cannot open the SQLite database /no/dir/sync.db (unable to open database file); check --db (the directory must exist and be writable)"
    )
  })

  it("PostgreSQL: the reason and the connection to check, without the password", () => {
    const message = SyncDatabaseName.setupMessage("postgres://u:secret@127.0.0.1:1/db", { message: "refused" })
    expect(message).toBe(
      "cannot open the PostgreSQL database postgres://u:***@127.0.0.1:1/db (refused); check --db (host, port, user, password, database) and that PostgreSQL is running"
    )
  })

  it("a PostgreSQL URL that does not parse: how to write it", () => {
    const message = SyncDatabaseName.setupMessage("postgres://u:se@cret@[bad/db", "ignored")
    expect(message).toMatch(
      /^cannot open the PostgreSQL database postgres:\/\/u:\*\*\*@\[bad\/db: --db is not a valid URL;/
    )
    expect(message).not.toContain("cret")
  })
})
