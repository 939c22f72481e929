// `sync --db` / BROKER_DB: a value that is not a SQLite path or a postgres:// URL is refused before
// anything is created (a mistyped URL never becomes a file named after it), `:memory:` too, no
// message shows a password, and a database failure names its cause in the one line on stderr.
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Exit, Layer, Scope } from "effect"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { syncSince, year } from "./support/Coverage.js"
import { bundled, cli, cliEnv, shell, useReferenceServer } from "./support/Harness.js"
import { subAccounts } from "./support/Scenario.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 31, transfers: 600, deposits: 200, subAccounts: subAccounts.length }
})
const since = String(Date.now() - 2 * year)
const secret = "hunter2-Secret"

const fast = (extra: Record<string, string> = {}) =>
  cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200", ...extra })
const requests = async () => (await running.run(running.server.stats)).requests

let dirs = 0
/** A fresh empty directory under the test's temporary one. */
const emptyDir = () => {
  const dir = Path.join(temp.dir, `cwd-${++dirs}`)
  Fs.mkdirSync(dir)
  return dir
}

/** `broker-history sync --db "$DB" …` run inside `dir`, so that a file it creates by mistake shows there. */
const syncIn = (dir: string, db: string | undefined, args: ReadonlyArray<string>, env: Record<string, string>) =>
  shell(
    `cd "$RUN_DIR" && exec "${process.execPath}" "${bundled}" sync ${db === undefined ? "" : "--db \"$RUN_DB\""} ${
      args.map((a) => `'${a}'`).join(" ")
    }`,
    { ...env, RUN_DIR: dir, ...(db === undefined ? {} : { RUN_DB: db }) }
  )

describe("sync --db: what is refused before anything is created", () => {
  it(
    "a mistyped PostgreSQL URL or any other scheme: exit 2 naming the scheme, no file, no request, no password",
    async () => {
      const before = await requests()
      const values = [
        [`postgress://sync:${secret}@127.0.0.1:5432/broker`, "the URL scheme postgress: is not supported"],
        [`pg://sync:${secret}@127.0.0.1/broker`, "the URL scheme pg: is not supported"],
        [`mysql://sync:${secret}@127.0.0.1/broker`, "the URL scheme mysql: is not supported"],
        ["sqlite://history.db", "the URL scheme sqlite: is not supported"],
        ["file:history.db", "the URL scheme file: is not supported"],
        [`postgres:sync:${secret}@127.0.0.1`, "a PostgreSQL URL starts with postgres:// (two slashes)"],
        [`postgresql:sync:${secret}@127.0.0.1/broker`, "a PostgreSQL URL starts with postgresql:// (two slashes)"]
      ] as const
      for (const [db, says] of values) {
        const dir = emptyDir()
        const result = await syncIn(dir, db, ["--since", since], fast())
        expect(result.code, db).toBe(2)
        expect(result.stderr, db).toMatch(/^broker-history: --db [^\n]+\n$/)
        expect(result.stderr, db).toContain(says)
        expect(result.stderr, db).toMatch(/write (it|a PostgreSQL database) as postgres(ql)?:\/\/user:password@host/)
        expect(result.stderr + result.stdout, db).not.toContain(secret)
        expect(result.stdout, db).toBe("")
        expect(Fs.readdirSync(dir), db).toEqual([])
      }
      expect(await requests()).toBe(before)
    },
    120_000
  )

  it("the same from BROKER_DB, named as such", async () => {
    const dir = emptyDir()
    const result = await syncIn(dir, undefined, ["--since", since], fast({ BROKER_DB: `pg://sync:${secret}@h/db` }))
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^broker-history: BROKER_DB pg:\/\/sync:\*\*\*@h\/db: the URL scheme pg: /)
    expect(Fs.readdirSync(dir)).toEqual([])
  }, 60_000)

  it(":memory: is refused (exit 2): the data would be thrown away", async () => {
    const dir = emptyDir()
    const result = await syncIn(dir, ":memory:", ["--since", since], fast())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      "broker-history: --db :memory: is SQLite's in-memory database, thrown away when the command ends: nothing synced would be kept; give a file path (created if missing) or a PostgreSQL URL\n"
    )
    expect(result.stdout).toBe("")
    expect(Fs.readdirSync(dir)).toEqual([])
  }, 60_000)

  it("a PostgreSQL URL that cannot be read: exit 2, one sentence, the password hidden", async () => {
    const result = await cli(["sync", "--db", `postgres://sync:${secret}@[bad/history`, "--since", since], fast())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      "broker-history: --db postgres://sync:***@[bad/history is not a valid URL: write it as postgres://user:password@host:port/database (percent-encode special characters in the password)\n"
    )
  }, 60_000)
})

describe("sync --db: what is taken", () => {
  it("./a:b.db is a SQLite file with a colon in its name", async () => {
    const dir = emptyDir()
    const result = await syncIn(dir, "./a:b.db", syncSince("", since).slice(3), fast())
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^synced \d+ streams into \.\/a:b\.db: /m)
    expect(Fs.readdirSync(dir)).toContain("a:b.db")
  }, 60_000)

  it("BROKER_DB names the database when --db is absent; --db wins over it", async () => {
    const dir = emptyDir()
    const args = syncSince("", since).slice(3)
    const fromVariable = await syncIn(dir, undefined, args, fast({ BROKER_DB: "from-variable.db" }))
    expect(fromVariable.stderr).toBe("")
    expect(fromVariable.code).toBe(0)
    expect(fromVariable.stdout).toMatch(/^synced \d+ streams into from-variable\.db: /m)
    const fromFlag = await syncIn(dir, "from-flag.db", args, fast({ BROKER_DB: "from-variable.db" }))
    expect(fromFlag.code).toBe(0)
    expect(fromFlag.stdout).toMatch(/^synced \d+ streams into from-flag\.db: /m)
    expect(Fs.readdirSync(dir).filter((f) => f.endsWith(".db")).sort()).toEqual(["from-flag.db", "from-variable.db"])
  }, 60_000)

  it("--help of sync names BROKER_DB and PGPASSWORD", async () => {
    const help = await cli(["sync", "--help"], fast())
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("BROKER_DB")
    expect(help.stdout).toContain("PGPASSWORD")
  }, 60_000)
})

describe("sync: a database failure names its cause", () => {
  it("a SQLite file another connection holds locked: 'database is locked' in the one line", async () => {
    const db = Path.join(temp.dir, "locked.db")
    expect((await cli(syncSince(db, since), fast())).code).toBe(0)
    // Another writer holds the file's write lock for as long as the second sync runs.
    const scope = Effect.runSync(Scope.make())
    const holder = await Effect.runPromise(Layer.buildWithScope(SqliteClient.layer({ filename: db }), scope))
    await Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe("BEGIN EXCLUSIVE")).pipe(Effect.provide(holder))
    )
    try {
      const result = await cli([...syncSince(db, since), "--reset-stream", "all"], fast(), 120_000)
      expect(result.code).toBe(1)
      const lines = result.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^broker-history: .*\(database is locked\)/)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 180_000)

  /**
   * A PostgreSQL server on 127.0.0.1 that asks for a cleartext password, keeps what it was sent and
   * refuses it as PostgreSQL does (28P01), so the password failure needs no configured cluster.
   */
  const refusingServer = async () => {
    const passwords: Array<string> = []
    const server = Net.createServer((socket) => {
      let buffer = Buffer.alloc(0)
      let started = false
      let user = ""
      socket.on("error", () => {})
      socket.on("data", (data) => {
        buffer = Buffer.concat([buffer, data])
        for (;;) {
          if (!started) {
            if (buffer.length < 4 || buffer.length < buffer.readInt32BE(0)) return
            const length = buffer.readInt32BE(0)
            const fields = buffer.subarray(8, length).toString("utf8").split("\0")
            user = fields[fields.indexOf("user") + 1] ?? ""
            buffer = buffer.subarray(length)
            started = true
            const ask = Buffer.alloc(9)
            ask.write("R", 0)
            ask.writeInt32BE(8, 1)
            ask.writeInt32BE(3, 5) // AuthenticationCleartextPassword
            socket.write(ask)
            continue
          }
          if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return
          const length = buffer.readInt32BE(1)
          if (buffer.toString("utf8", 0, 1) === "p") {
            passwords.push(buffer.toString("utf8", 5, length).replace(/\0$/, ""))
          }
          buffer = buffer.subarray(1 + length)
          const body = Buffer.from(
            `SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed for user "${user}"\0\0`,
            "utf8"
          )
          const head = Buffer.alloc(5)
          head.write("E", 0)
          head.writeInt32BE(4 + body.length, 1)
          socket.end(Buffer.concat([head, body]))
          return
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as Net.AddressInfo).port
    return { port, passwords, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
  }

  /** The child's environment without any PG* variable from the outside. */
  const withoutPg = (extra: Record<string, string> = {}) => {
    const env = fast(extra)
    for (const k of Object.keys(env)) if (k.startsWith("PG") && !(k in extra)) delete env[k]
    return env
  }

  it("a refused password: the server's reason, never the password, also with --verbose", async () => {
    const pg = await refusingServer()
    try {
      const db = `postgres://sync:${secret}@127.0.0.1:${pg.port}/broker`
      for (const verbose of [[], ["--verbose"]]) {
        const result = await cli(["sync", "--db", db, ...verbose], withoutPg())
        expect(result.code).toBe(1)
        expect(result.stderr).toMatch(
          new RegExp(
            `^broker-history: cannot open the PostgreSQL database postgres://sync:\\*\\*\\*@127\\.0\\.0\\.1:${pg.port}/broker \\(password authentication failed for user "sync"\\); check --db`
          )
        )
        expect(result.stderr + result.stdout).not.toContain(secret)
      }
      expect(pg.passwords).toEqual([secret, secret])
    } finally {
      await pg.close()
    }
  }, 60_000)

  it("PGPASSWORD is the password of a URL without one (the pg driver reads it as libpq does)", async () => {
    const pg = await refusingServer()
    try {
      const result = await cli(
        ["sync"],
        withoutPg({ BROKER_DB: `postgres://sync@127.0.0.1:${pg.port}/broker`, PGPASSWORD: secret })
      )
      expect(result.code).toBe(1)
      expect(result.stderr).toContain("(password authentication failed for user \"sync\")")
      expect(result.stderr).not.toContain(secret)
      expect(pg.passwords).toEqual([secret])
    } finally {
      await pg.close()
    }
  }, 60_000)
})
