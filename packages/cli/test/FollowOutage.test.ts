// `sync --follow` rides out outages (issue 21): the CLI as a child process, with short retry settings
// (1 retry per request, 50 ms base delay, backoff capped at 1 s), through
// - a PostgreSQL restart (a throwaway cluster of this test's own: the shared one is never touched),
// - the reference service stopped for far longer than a request's retries, then started again on the
//   same port and database file,
// - SQLite busy: another connection holding the write lock longer than SQLite's busy timeout (5 s),
// with records added during each outage. The follower must stay up, /readyz must say 503 during the
// outage and 200 after it, each outage must be logged once when it starts and once when it ends,
// and the tables must end up equal to the service's data (every record exactly once).
import { Store } from "@broker-history/server"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import * as Http from "node:http"
import * as Path from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import * as Cluster from "./support/Cluster.js"
import type { Running } from "./support/Harness.js"
import { cliEnv, killChildren, sleep, spawn, startServer, tempDir, until } from "./support/Harness.js"
import { expectTablesEqualService, lateTransfer, recentDeposit, subAccounts, syncArgs } from "./support/Scenario.js"
import { readTables } from "./support/Tables.js"

const inCi = /^(1|true|yes)$/i.test(process.env.CI ?? "")
const temp = tempDir()
afterEach(killChildren)
afterAll(() => temp.cleanup())

/** The status of `GET path` on the health port, or 0 when nothing answered within 2 s. */
const probe = (port: number, path: string) =>
  new Promise<number>((resolve) => {
    const request = Http.get({ host: "127.0.0.1", port, path, agent: false, timeout: 2_000 }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("timeout", () => request.destroy())
    request.on("error", () => resolve(0))
  })

/** Short retries: a request gives up after one retry, a follower backs off to 1 s at most. */
const outageEnv = (baseUrl: string) =>
  cliEnv(baseUrl, {
    BROKER_RATE_LIMIT: "200",
    BROKER_MAX_RETRIES: "1",
    BROKER_RETRY_BASE_DELAY: "50ms",
    BROKER_FOLLOW_RETRY_MAX_DELAY: "1s"
  })

const seed = { seed: 31, transfers: 1200, deposits: 300, subAccounts: subAccounts.length }

/** The reference service on `port` (0: any) with its history in `file`. */
const service = (file: string, port = 0) => startServer({ database: file, port, seed })

/** Records added while the service is stopped, straight into its database file. */
const insertOffline = (file: string, n: number) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    yield* store.insertTransfers([lateTransfer(n, Date.now() - 30_000)])
    yield* store.insertDeposits([recentDeposit(n, Date.now())])
  }).pipe(Effect.provide(Store.layerSqlite(file)), Effect.runPromise)

const insertOnline = async (running: Running, n: number) => {
  await running.run(running.server.store.insertTransfers([lateTransfer(n, Date.now() - 30_000)]))
  await running.run(running.server.store.insertDeposits([recentDeposit(n, Date.now())]))
}

const lines = (stderr: string, pattern: RegExp) => stderr.split("\n").filter((line) => pattern.test(line))

const bin = Cluster.binaries()

if (bin === undefined) {
  if (inCi) {
    it("PostgreSQL binaries are available (CI)", () => {
      throw new Error(
        "no PostgreSQL under /usr/lib/postgresql/*/bin, so the outage test cannot start its own cluster: .ci/run installs it. " +
          "Fix the CI set-up; this test does not skip in CI."
      )
    })
  } else {
    it.skip("sync --follow through a PostgreSQL restart: skipped, no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql, or bash .ci/run)", () => {})
  }
} else {
  describe("sync --follow through outages", () => {
    it(
      "PostgreSQL restarted, then the service stopped longer than the retries: alive, 503 during, 200 after, every record once",
      async () => {
        const cluster = await Cluster.create(bin)
        const file = Path.join(temp.dir, "service.db")
        let running = await service(file)
        try {
          const port = running.server.port
          const health = await Cluster.freePort()
          const child = spawn(
            [...syncArgs(cluster.url), "--follow", "--interval", "1s", "--health", `127.0.0.1:${health}`],
            outageEnv(running.server.baseUrl),
            90_000
          )
          const alive = () => child.process.exitCode === null && child.process.signalCode === null
          await until(async () => (await probe(health, "/readyz")) === 200, 40_000, "ready after the catch-up")
          expect(child.stdout()).toContain("caught up")

          // PostgreSQL stopped (its sessions terminated) while records arrive: the writes wait.
          await cluster.stop()
          await insertOnline(running, 1)
          await until(async () => (await probe(health, "/readyz")) === 503, 20_000, "503 while PostgreSQL is down")
          expect(await probe(health, "/livez")).toBe(200)
          await sleep(1_500)
          expect(alive(), child.stderr()).toBe(true)
          await cluster.start()
          await until(async () => (await probe(health, "/readyz")) === 200, 20_000, "ready after PostgreSQL is back")
          expect(alive(), child.stderr()).toBe(true)

          // The service stopped for longer than a request's retries (1 retry of 50 ms), with records
          // added meanwhile; then started again on the same port and file.
          await running.close()
          await insertOffline(file, 2)
          await until(async () => (await probe(health, "/readyz")) === 503, 20_000, "503 while the service is down")
          await sleep(2_500)
          expect(alive(), child.stderr()).toBe(true)
          running = await service(file, port)
          await insertOnline(running, 3)
          await until(async () => (await probe(health, "/readyz")) === 200, 20_000, "ready after the service is back")
          await until(
            async () => {
              const tables = await readTables(cluster.url)
              return [1, 2, 3].every((n) =>
                tables.transfers.some((t) => t.tran_id === lateTransfer(n, 0).tranId) &&
                tables.deposits.some((d) => d.tx_id === recentDeposit(n, 0).txId)
              )
            },
            20_000,
            "the records added during and after the outages"
          )
          await expectTablesEqualService(running, cluster.url)

          child.process.kill("SIGTERM")
          const result = await child.done
          expect(result.code, result.stderr).toBe(0)
          // Each outage once when it started and once when it ended; no failure sentence.
          expect(lines(result.stderr, /database unavailable: /), result.stderr).toHaveLength(1)
          expect(lines(result.stderr, /database available again after /), result.stderr).toHaveLength(1)
          expect(lines(result.stderr, /broker service unavailable/), result.stderr).toHaveLength(1)
          expect(lines(result.stderr, /broker service available again after /), result.stderr).toHaveLength(1)
          expect(result.stderr).not.toMatch(/^broker-history: /m)
        } finally {
          await running.close()
          await cluster.destroy()
        }
      },
      90_000
    )
  })
}

describe("sync --follow into SQLite", () => {
  it(
    "another connection holds the write lock longer than the busy timeout: the writes wait, nothing is lost",
    async () => {
      const file = Path.join(temp.dir, "busy-service.db")
      const running = await service(file)
      const db = Path.join(temp.dir, "busy.db")
      try {
        const child = spawn(
          [...syncArgs(db), "--follow", "--interval", "1s"],
          outageEnv(running.server.baseUrl),
          90_000
        )
        await until(() => child.stdout().includes("caught up"), 40_000, "the catch-up")

        // The lock: an immediate transaction of another connection, for 7 s (SQLite's busy timeout is 5 s).
        const scope = Effect.runSync(Scope.make())
        const holder = await Effect.runPromise(
          Effect.map(
            Layer.buildWithScope(SqliteClient.layer({ filename: db, disableWAL: true }), scope),
            Context.get(SqlClient.SqlClient)
          )
        )
        await Effect.runPromise(holder`BEGIN IMMEDIATE`)
        try {
          await insertOnline(running, 11)
          await sleep(7_000)
          expect(child.process.exitCode, child.stderr()).toBe(null)
        } finally {
          await Effect.runPromise(holder`ROLLBACK`)
          await Effect.runPromise(Scope.close(scope, Exit.void))
        }
        await until(
          async () => {
            const tables = await readTables(db)
            return tables.transfers.some((t) => t.tran_id === lateTransfer(11, 0).tranId) &&
              tables.deposits.some((d) => d.tx_id === recentDeposit(11, 0).txId)
          },
          20_000,
          "the record added while the database was locked"
        )
        await expectTablesEqualService(running, db)
        child.process.kill("SIGTERM")
        const result = await child.done
        expect(result.code, result.stderr).toBe(0)
        expect(lines(result.stderr, /database unavailable: database is locked \(SQLITE_BUSY\)/), result.stderr)
          .toHaveLength(1)
        expect(lines(result.stderr, /database available again after /), result.stderr).toHaveLength(1)
        expect(result.stderr).not.toMatch(/^broker-history: /m)
      } finally {
        await running.close()
      }
    },
    90_000
  )
})
