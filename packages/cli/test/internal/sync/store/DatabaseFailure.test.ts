// Which database failures a follower waits out (availability: PostgreSQL restarting or down, the
// connection lost, SQLite busy) and which end it (everything else), with the errors the drivers
// really throw where they can be made here (SQLite busy, a refused PostgreSQL connection).
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as DatabaseFailure from "../../../../src/internal/sync/store/DatabaseFailure.js"

/** An error as node-postgres makes one from the server's answer: a message and its SQLSTATE. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" })
const sqlError = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })

describe("DatabaseFailure.isTransient", () => {
  it("PostgreSQL shutting down, starting up, out of connections, or the connection failing: transient", () => {
    for (
      const [code, message] of [
        ["57P01", "terminating connection due to administrator command"],
        ["57P02", "terminating connection because of crash of another server process"],
        ["57P03", "the database system is starting up"],
        ["57P03", "the database system is shutting down"],
        ["53300", "sorry, too many clients already"],
        ["08006", "connection failure"],
        ["08001", "could not connect to server"]
      ] as const
    ) expect(DatabaseFailure.isTransient(sqlError(pgError(code, message))), code).toBe(true)
  })

  it("a socket refused, reset or broken, and node-postgres's lost connections: transient", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]) {
      const cause = Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code })
      expect(DatabaseFailure.isTransient(sqlError(cause)), code).toBe(true)
    }
    // Node 20 reports a refused connection to a name with several addresses as an AggregateError.
    const aggregate = new AggregateError([
      Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
    ])
    expect(DatabaseFailure.isTransient(sqlError(aggregate))).toBe(true)
    expect(DatabaseFailure.isTransient(sqlError(new Error("Connection terminated unexpectedly")))).toBe(true)
    expect(DatabaseFailure.isTransient(sqlError(new Error("timeout exceeded when trying to connect")))).toBe(true)
  })

  it("SQLite busy (another connection holds the write lock): transient", () => {
    expect(DatabaseFailure.isTransient(sqlError(pgError("SQLITE_BUSY", "database is locked")))).toBe(true)
    expect(DatabaseFailure.isTransient(sqlError(pgError("SQLITE_BUSY_SNAPSHOT", "database is locked")))).toBe(true)
  })

  it("schema, permission, constraint, syntax, a full disk: permanent", () => {
    for (
      const [code, message] of [
        ["42P01", "relation \"transfers\" does not exist"],
        ["42501", "permission denied for table transfers"],
        ["23505", "duplicate key value violates unique constraint"],
        ["42601", "syntax error at or near \"INSERT\""],
        ["53100", "could not extend file: No space left on device"],
        ["28P01", "password authentication failed for user \"sync\""],
        ["SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: transfers.tran_id"],
        ["SQLITE_READONLY", "attempt to write a readonly database"],
        ["SQLITE_CORRUPT", "database disk image is malformed"]
      ] as const
    ) expect(DatabaseFailure.isTransient(sqlError(pgError(code, message))), code).toBe(false)
    // A SQLSTATE decides, whatever the message around it says.
    expect(DatabaseFailure.isTransient(sqlError(pgError("42501", "permission denied; connection terminated")))).toBe(
      false
    )
    expect(DatabaseFailure.isTransient(sqlError(new Error("no such table: transfers")))).toBe(false)
    expect(DatabaseFailure.isTransient(undefined)).toBe(false)
  })

  it.live("the real SQLITE_BUSY of @effect/sql-sqlite-node when another connection holds the write lock", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "busy-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
      const file = Path.join(dir, "busy.db")
      const connect = Effect.map(Layer.build(SqliteClient.layer({ filename: file })), Context.get(SqlClient.SqlClient))
      const holder = yield* connect
      const writer = yield* connect
      yield* holder`CREATE TABLE t (x INTEGER)`
      yield* holder`BEGIN IMMEDIATE`
      // The writer gives up after 10 ms instead of SQLite's default 5 s.
      yield* writer.unsafe("PRAGMA busy_timeout = 10")
      const error = yield* Effect.flip(writer`INSERT INTO t VALUES (1)`)
      yield* holder`ROLLBACK`
      expect(DatabaseFailure.isTransient(error)).toBe(true)
      expect(DatabaseFailure.describe(error)).toBe("database is locked (SQLITE_BUSY)")
    }).pipe(Effect.scoped))

  it.live("the real failure of @effect/sql-pg when nothing listens: transient", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(
          Effect.provide(PgClient.layer({ url: Redacted.make("postgres://u:hunter2@127.0.0.1:1/db") })),
          Effect.scoped
        )
      )
      expect(DatabaseFailure.isTransient(error)).toBe(true)
      expect(DatabaseFailure.describe(error)).toMatch(/ECONNREFUSED/)
      expect(DatabaseFailure.describe(error)).not.toContain("hunter2")
    }))
})

describe("DatabaseFailure.describe", () => {
  it("the innermost message, with its code", () => {
    expect(DatabaseFailure.describe(sqlError(pgError("57P01", "terminating connection due to administrator command"))))
      .toBe("terminating connection due to administrator command (57P01)")
    expect(DatabaseFailure.describe(sqlError(new Error("Connection terminated unexpectedly."))))
      .toBe("Connection terminated unexpectedly")
    // Bounded, and never a password (as every database message: DatabaseName.reason).
    const long = DatabaseFailure.describe(
      sqlError(new Error(`cannot reach postgres://u:hunter2@h/db ${"x".repeat(500)}`))
    )
    expect(long).not.toContain("hunter2")
    expect(long.length).toBeLessThanOrEqual(200)
    expect(DatabaseFailure.describe(new SqlError({ message: "Failed to acquire connection" })))
      .toBe("Failed to acquire connection")
  })
})
