// `sync --profiles`: two broker keys of one reference service synced by one process into one SQLite
// database, rows and checkpoints kept per profile; a refused key stops only its own profile; a
// database of the previous schema keeps its rows as the default profile's.
import { ApiKeys } from "@broker-history/server"
import * as Fs from "node:fs"
import * as NodeHttp from "node:http"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { expectTablesFrom, syncSince, year } from "./support/Coverage.js"
import { cli, cliEnv, spawn, until, useReferenceServer } from "./support/Harness.js"
import {
  acmeRoutes,
  expectProfile as expectRows,
  globexRoutes,
  profilesEnv as envOf,
  profilesYaml,
  secondKey
} from "./support/Profiles.js"
import { lateTransfer, subAccounts } from "./support/Scenario.js"
import { execute, legacyCopy, readCheckpointRows, readTables } from "./support/Tables.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 31, transfers: 1500, deposits: 600, subAccounts: subAccounts.length },
  keys: [ApiKeys.demo, secondKey]
})
const t0 = Date.now()
const since = t0 - 3 * year

const profilesEnv = (overrides: Record<string, string> = {}) => envOf(running.server.baseUrl, overrides)
const expectProfile = (db: string, profile: string, routes: typeof acmeRoutes) =>
  expectRows(running, db, profile, routes, since)

const writeProfiles = (name: string, text = profilesYaml) => {
  const file = Path.join(temp.dir, name)
  Fs.writeFileSync(file, text)
  return file
}

const args = (db: string, file: string) => ["sync", "--db", db, "--profiles", file, "--since", String(since)]

const requests = async () => (await running.run(running.server.stats)).requests

describe("sync --profiles", () => {
  it(
    "two keys sync at once into one database: rows and checkpoints per profile; a second run resumes each",
    async () => {
      const db = Path.join(temp.dir, "two.db")
      const file = writeProfiles("two.yaml")
      const first = await cli(args(db, file), profilesEnv())
      expect(first.stderr).toBe("")
      expect(first.code).toBe(0)
      const lines = first.stdout.trim().split("\n")
      expect(lines.filter((l) => l.startsWith("profile acme: synced 21 streams into "))).toHaveLength(1)
      expect(lines.filter((l) => l.startsWith("profile globex: synced 6 streams into "))).toHaveLength(1)
      expect(lines.at(-1)).toMatch(/^synced 2 of 2 profiles into .*two\.db \(\d+ requests, \d+ retries, [\d.]+ s\)$/)
      expect(first.stdout).toContain("profile acme: sub→sub transfers are not read: 2 ordered sub-account pairs")

      const acme = await expectProfile(db, "acme", acmeRoutes)
      await expectProfile(db, "globex", globexRoutes)
      // Checkpoints per profile: each profile's streams, each with its own row (the deposits stream twice).
      const acmeRows = await readCheckpointRows(db, "acme")
      const globexRows = await readCheckpointRows(db, "globex")
      expect(acmeRows.map((r) => r.stream)).toContain("[\"deposits\"]")
      expect(globexRows.map((r) => r.stream)).toContain("[\"deposits\"]")
      expect(globexRows.map((r) => r.stream)).toContain(
        JSON.stringify(["transfers", "SPOT", "FUTURES", subAccounts[2], subAccounts[3]])
      )
      expect(acmeRows.some((r) => r.stream.includes(subAccounts[3]))).toBe(false)
      expect(await readCheckpointRows(db)).toEqual([]) // nothing for the default profile

      // Separate checkpoints: damaging acme's deposit checkpoint skips acme's deposits only.
      await execute(db, (sql) => [
        sql`UPDATE sync_checkpoints SET checkpoint = '{garbage' WHERE profile = 'acme' AND stream = '["deposits"]'`
      ])
      const second = await cli(args(db, file), profilesEnv())
      expect(second.code).toBe(1)
      expect(second.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^broker-history: profile acme: the checkpoint of 1 stream is damaged: \["deposits"\]: the checkpoint \{garbage is not JSON/
        )
      ])
      // Each profile resumed from its checkpoints: only the settlement windows were re-read.
      const applied = (profile: string, out: string) =>
        Number(
          new RegExp(`^profile ${profile}: synced \\d+ streams into .*: applied (\\d+) transfer`, "m").exec(out)![1]
        )
      expect(applied("acme", second.stdout)).toBeLessThan(applied("acme", first.stdout))
      expect(applied("globex", second.stdout)).toBeLessThan(applied("globex", first.stdout))
      expect(second.stdout).toMatch(/^profile globex: synced 6 streams/m)
      expect(second.stdout).toMatch(/^profile acme: synced 20 streams/m)
      expect((await readTables(db, "acme")).transfers).toEqual(acme.transfers)
      expect((await readCheckpointRows(db, "globex")).map((r) => r.checkpoint)).toEqual(
        globexRows.map((r) => r.checkpoint)
      )
    },
    120_000
  )

  it("a refused key stops its own profile with one line; the other completes; exit 3", async () => {
    const db = Path.join(temp.dir, "refused.db")
    const file = writeProfiles("refused.yaml")
    const result = await cli(
      args(db, file),
      profilesEnv({ GLOBEX_SECRET_KEY: "ffffffffffffffffffffffffffffffff" })
    )
    expect(result.code).toBe(3)
    expect(result.stderr.trim().split("\n")).toEqual([
      "broker-history: profile globex stopped: the service refused its key (401 700002 Signature for this request is not valid.): " +
      "check GLOBEX_SECRET_KEY (secretKeyEnv): it must hold the secret of the API key in GLOBEX_API_KEY; the other profiles go on"
    ])
    expect(result.stderr).not.toContain("ffffffff")
    expect(result.stdout).toMatch(/^profile acme: synced 21 streams/m)
    expect(result.stdout).not.toContain("profile globex: synced")
    expect(result.stdout).toMatch(/^synced 1 of 2 profiles into /m)
    await expectProfile(db, "acme", acmeRoutes)
    expect((await readTables(db, "globex")).transfers).toEqual([])
  }, 120_000)

  it("refused before anything is opened or sent: a variable not set (exit 3), flags for one key (exit 2)", async () => {
    const db = Path.join(temp.dir, "refused-early.db")
    const file = writeProfiles("early.yaml")
    const before = await requests()
    const env = profilesEnv()
    delete env.GLOBEX_API_KEY
    const unset = await cli(args(db, file), env)
    expect(unset.code).toBe(3)
    expect(unset.stderr).toBe(
      `broker-history: --profiles ${file}: profile globex: apiKeyEnv names GLOBEX_API_KEY, which is not set in the environment: set it to the profile's API key\n`
    )
    const mixed = await cli([...args(db, file), "--sub-accounts", "a@x", "--api-key", "k"], profilesEnv())
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toBe(
      "broker-history: --profiles gives each key its own settings: drop --sub-accounts, --api-key (a profile has baseUrl, apiKeyEnv, secretKeyEnv, subAccounts or pairs, accountTypes and rateLimit)\n"
    )
    const inline = writeProfiles(
      "inline.yaml",
      profilesYaml.replace("secretKeyEnv: ACME_SECRET_KEY", "secretKey: hunter2")
    )
    const secret = await cli(args(db, inline), profilesEnv())
    expect(secret.code).toBe(2)
    expect(secret.stderr).toContain("secretKey is written in the file")
    expect(secret.stderr).not.toContain("hunter2")
    expect(await requests()).toBe(before)
    expect(Fs.existsSync(db)).toBe(false)
  }, 60_000)

  it("a database of the previous schema keeps its rows and checkpoints as the default profile's", async () => {
    const current = Path.join(temp.dir, "current.db")
    const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
    expect((await cli(syncSince(current, String(since)), env)).code).toBe(0)
    const previous = Path.join(temp.dir, "previous.db")
    await legacyCopy(current, previous, 2)
    const stored = await readCheckpointRows(current)
    await execute(previous, (sql) => [
      sql`INSERT INTO deposits ${
        sql.insert({
          tx_id: "previous-marker",
          coin: "USDT",
          network: "TRC20",
          address: "T0",
          amount: "1.00",
          status: "1",
          address_tag: "",
          unlock_confirm: "1",
          confirm_times: "1",
          insert_time: 1,
          memo: ""
        })
      }`
    ])

    const result = await cli(syncSince(previous, String(since)), env)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    // The checkpoints and covered ranges came along: no stream is read again from --since.
    expect(result.stdout).not.toContain("backfilled")
    const rows = await readCheckpointRows(previous)
    expect(rows.map((r) => [r.stream, r.covered_since])).toEqual(stored.map((r) => [r.stream, r.covered_since]))
    const tables = await readTables(previous)
    expect(tables.deposits.some((d) => d.tx_id === "previous-marker")).toBe(true)
    await execute(previous, (sql) => [sql`DELETE FROM deposits WHERE tx_id = 'previous-marker'`])
    await expectTablesFrom(running, previous, since)

    // A profiles file that names a profile default continues those rows and checkpoints.
    const file = writeProfiles(
      "default.yaml",
      `profiles:\n  - name: default\n    apiKeyEnv: ACME_API_KEY\n    secretKeyEnv: ACME_SECRET_KEY\n    subAccounts: [${
        subAccounts.join(", ")
      }]\n`
    )
    const named = await cli(args(previous, file), profilesEnv())
    expect(named.stderr).toBe("")
    expect(named.code).toBe(0)
    expect(named.stdout).not.toContain("backfilled")
    await expectTablesFrom(running, previous, since)
  }, 120_000)

  it(
    "--follow: a refused key stops its profile at once; the other follows, each change stored with its stream's checkpoint",
    async () => {
      const db = Path.join(temp.dir, "follow.db")
      const file = writeProfiles("follow.yaml")
      const child = spawn(
        [...args(db, file), "--follow", "--interval", "2s"],
        profilesEnv({ GLOBEX_SECRET_KEY: "f".repeat(32) }),
        120_000
      )
      await until(() => /^profile acme: .* caught up: /m.test(child.stdout()), 60_000, "acme's catch-up")
      expect(child.stderr()).toMatch(/^broker-history: profile globex stopped: the service refused its key/)
      // A new transfer of one of acme's streams (master → the first sub-account, SPOT → FUTURES).
      const transfer = lateTransfer(8, Date.now() - 1000)
      expect(transfer.toAccount).toBe(subAccounts[0])
      await running.run(running.server.store.insertTransfers([transfer]))
      const stream = JSON.stringify(["transfers", "SPOT", "FUTURES", null, subAccounts[0]])
      await until(
        async () => {
          const row = (await readCheckpointRows(db, "acme")).find((r) => r.stream === stream)
          return row !== undefined && JSON.parse(row.checkpoint).ids.includes(transfer.tranId)
        },
        30_000,
        "the new transfer's stream checkpoint"
      )
      expect((await readTables(db, "acme")).transfers.some((t) => t.tran_id === transfer.tranId)).toBe(true)
      child.process.kill("SIGTERM")
      const result = await child.done
      // SIGTERM is a clean stop (exit 0); the stopped profile's line was written when it stopped.
      expect(result.signal).toBe(null)
      expect(result.code).toBe(0)
      expect(result.stderr.trim().split("\n")).toHaveLength(1)
      expect((await readTables(db, "globex")).transfers).toEqual([])
    },
    120_000
  )

  it("--otlp-endpoint: one exporter for the process, with the spans of every profile's requests", async () => {
    // A loopback OTLP/HTTP collector that keeps each request's path and body.
    const posts: Array<{ readonly path: string; readonly body: string }> = []
    const collector = NodeHttp.createServer((request, response) => {
      let body = ""
      request.setEncoding("utf8").on("data", (d: string) => (body += d)).on("end", () => {
        posts.push({ path: request.url ?? "", body })
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = collector.address() as { port: number }
      const db = Path.join(temp.dir, "telemetry.db")
      const before = await requests()
      const result = await cli([
        ...args(db, writeProfiles("telemetry.yaml")),
        "--otlp-endpoint",
        `http://127.0.0.1:${port}`
      ], {
        ...profilesEnv(),
        OTEL_EXPORTER_OTLP_COMPRESSION: "none"
      })
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      // The metrics are the process's: exported once when the command ends, not once per profile.
      const metrics = posts.filter((p) => p.path === "/v1/metrics")
      expect(metrics).toHaveLength(1)
      const requested = JSON.parse(metrics[0].body).resourceMetrics
        .flatMap((r: any) => r.scopeMetrics.flatMap((s: any) => s.metrics))
        .filter((m: any) => m.name === "broker_history_requests_total")
        .flatMap((m: any) => m.sum.dataPoints)
        .reduce((n: number, p: any) => n + Number(p.asDouble ?? p.asInt), 0)
      // Both keys' requests reached the service, and each has its span in the one exporter.
      expect(requested).toBeGreaterThan(0)
      expect((await requests()) - before).toBeGreaterThanOrEqual(requested)
      const gets = posts.filter((p) => p.path === "/v1/traces")
        .flatMap((p) => p.body.match(/"name":"BrokerHttpClient\.get [a-zA-Z]+"/g) ?? [])
      expect(gets.length).toBe(requested)
    } finally {
      collector.closeAllConnections()
      await new Promise((resolve) => collector.close(resolve))
    }
  }, 60_000)

  it(
    "each profile runs at once on its own budget: a fast key completes while a slow one is still reading",
    async () => {
      const db = Path.join(temp.dir, "budgets.db")
      // acme may send one request every 10 s; globex 100 a second.
      const file = writeProfiles(
        "budgets.yaml",
        profilesYaml.replace("{ limit: 100, interval: 1s }", "{ limit: 1, interval: 10s }")
      )
      const child = spawn(args(db, file), profilesEnv(), 60_000)
      await until(() => /^profile globex: synced 6 streams/m.test(child.stdout()), 30_000, "globex's summary")
      expect(child.stdout()).not.toContain("profile acme: synced")
      // acme's catch-up is cut short: 143, said on stderr; globex's rows are complete.
      child.process.kill("SIGTERM")
      const result = await child.done
      expect(result.code).toBe(143)
      expect(result.stderr).toContain("broker-history: interrupted: the sync stopped before it caught up")
      await expectProfile(db, "globex", globexRoutes)
    },
    60_000
  )
})
