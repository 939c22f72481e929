// `sync` refusing what it cannot do well: a blank --db, account types that are not words, a PostgreSQL URL that
// cannot be read, any usage error before the database file is created, and damaged or impossible
// checkpoints (named, skipped, and reset with --reset-stream).
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { day, expectTablesFrom, syncSince, year } from "./support/Coverage.js"
import { cli, cliEnv, useReferenceServer } from "./support/Harness.js"
import { lateTransfer, subAccounts } from "./support/Scenario.js"
import { execute, readCheckpointRows, readTables } from "./support/Tables.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 29, transfers: 1500, deposits: 600, subAccounts: subAccounts.length }
})
const t0 = Date.now()
const since = String(t0 - 3 * year)

const fast = (extra: Record<string, string> = {}) =>
  cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200", ...extra })
const requests = async () => (await running.run(running.server.stats)).requests

describe("sync: refused before anything is opened or sent", () => {
  it("an empty or blank --db is a usage error (exit 2); a missing --db too", async () => {
    const before = await requests()
    for (const db of ["", "  "]) {
      const result = await cli(["sync", "--db", db, "--since", since], fast())
      expect(result.code, JSON.stringify(db)).toBe(2)
      expect(result.stderr).toBe(
        "broker-history: --db is empty: give a SQLite file path (created if missing) or a PostgreSQL URL postgres://user:password@host:port/database\n"
      )
      expect(result.stdout).toBe("")
    }
    const missing = await cli(["sync", "--since", since], fast())
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("--db")
    expect(await requests()).toBe(before)
  }, 60_000)

  it("--account-types and the types of a --pairs file: one word each, any letter case, stored upper case", async () => {
    const db = Path.join(temp.dir, "types.db")
    const before = await requests()
    const bogus = await cli(["sync", "--db", db, "--account-types", "spot,SPOT FUTURES"], fast())
    expect(bogus.code).toBe(2)
    expect(bogus.stderr).toBe(
      "broker-history: --account-types: \"SPOT FUTURES\" is not an account type: write one word of letters, digits and _ (the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)\n"
    )
    const file = Path.join(temp.dir, "bad-types.txt")
    Fs.writeFileSync(file, `- ${subAccounts[0]}\n- ${subAccounts[1]} SPOT margin/x\n`)
    const pairs = await cli(["sync", "--db", db, "--pairs", file], fast())
    expect(pairs.code).toBe(2)
    expect(pairs.stderr).toBe(
      `broker-history: --pairs ${file}: line 2: TO_TYPE: "margin/x" is not an account type: write one word of letters, digits and _ (the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)\n`
    )
    expect(await requests()).toBe(before)
    expect(Fs.existsSync(db)).toBe(false)

    // Any letter case is accepted and stored in the exchange's spelling.
    Fs.writeFileSync(file, `- ${subAccounts[0]} spot Futures\n`)
    const lower = await cli(["sync", "--db", db, "--pairs", file, "--since", since], fast())
    expect(lower.stderr).toBe("")
    expect(lower.code).toBe(0)
    const spot = await cli(
      ["sync", "--db", db, "--sub-accounts", subAccounts.join(","), "--account-types", "spot", "--since", since],
      fast()
    )
    expect(spot.code).toBe(0)
    const streams = (await readCheckpointRows(db)).map((r) => r.stream)
    expect(streams).toContain(JSON.stringify(["transfers", "SPOT", "FUTURES", null, subAccounts[0]]))
    expect(streams.some((s) => s.includes("\"SPOT\",\"SPOT\""))).toBe(true)
    for (const s of streams) expect(s).not.toMatch(/spot|Futures/)
  }, 60_000)

  it(
    "a PostgreSQL URL that cannot be read: a usage error (exit 2), the database named once, password hidden",
    async () => {
      const result = await cli(["sync", "--db", "postgres://sync:hunter2@[bad/history", "--since", since], fast())
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        "broker-history: --db postgres://sync:***@[bad/history is not a valid URL: write it as postgres://user:password@host:port/database (percent-encode special characters in the password)\n"
      )
    },
    60_000
  )

  it("a usage error found after the flags are read still creates no database file", async () => {
    const db = Path.join(temp.dir, "never-created.db")
    const profiles = Path.join(temp.dir, "proxy-profiles.yaml")
    Fs.writeFileSync(
      profiles,
      "profiles:\n  - { name: acme, apiKeyEnv: BROKER_API_KEY, secretKeyEnv: BROKER_SECRET_KEY }\n"
    )
    const before = await requests()
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, Record<string, string>, string]> = [
      [["--proxy", "ftp://proxy.test:3128"], {}, "BROKER_PROXY (or --proxy): "],
      [[], { BROKER_PROXY: "ftp://proxy.test:3128" }, "BROKER_PROXY (or --proxy): "],
      [[], { HTTPS_PROXY: "proxy.test:3128", HTTP_PROXY: "proxy.test:3128" }, "HTTP"],
      [["--otlp-endpoint", "ftp://collector.test"], {}, "OTEL_EXPORTER_OTLP_ENDPOINT: "],
      [[], { OTEL_EXPORTER_OTLP_ENDPOINT: "collector.test:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT: "],
      [["--profiles", profiles, "--proxy", "ftp://proxy.test:3128"], {}, "BROKER_PROXY (or --proxy): "],
      [["--since", String(Date.now() + 30 * day)], {}, "--since: "],
      [["--reset-stream", "[\"transfers\",\"X\"]"], {}, "--reset-stream: "],
      [["--reset-stream", "[\"deposits\",\"USDT\"]"], {}, "--reset-stream: "],
      [["--interval", "0s"], {}, "--interval"]
    ]
    for (const [args, env, says] of cases) {
      const what = JSON.stringify([args, env])
      const result = await cli(["sync", "--db", db, ...args], fast(env))
      expect(result.code, what).toBe(2)
      expect(result.stderr, what).toMatch(new RegExp(`^broker-history: [^\\n]*\\n$`))
      expect(result.stderr, what).toContain(says)
      expect(Fs.existsSync(db), what).toBe(false)
    }
    expect(await requests()).toBe(before)
  }, 120_000)

  it("--profiles: the file's own problems come before a variable that is not set (exit 2, not 3)", async () => {
    const db = Path.join(temp.dir, "profiles-order.db")
    const file = Path.join(temp.dir, "profiles-order.yaml")
    Fs.writeFileSync(
      file,
      "profiles:\n  - { name: acme, apiKeyEnv: UNSET_API_KEY, secretKeyEnv: UNSET_SECRET_KEY }\n" +
        "  - { name: globex, apiKeyEnv: BROKER_API_KEY, secretKeyEnv: BROKER_SECRET_KEY, accountTypes: [MARGIN-X] }\n"
    )
    const result = await cli(["sync", "--db", db, "--profiles", file], fast())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `broker-history: --profiles ${file}: profile globex: accountTypes: "MARGIN-X" is not an account type: write one word of letters, digits and _ (the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)\n`
    )
    expect(Fs.existsSync(db)).toBe(false)
  }, 60_000)
})

describe("sync: damaged checkpoints", () => {
  const damage = (db: string, stream: string, checkpoint: string) =>
    execute(db, (sql) => [sql`UPDATE sync_checkpoints SET checkpoint = ${checkpoint} WHERE stream = ${stream}`])

  it(
    "a damaged checkpoint is named with its reset; the other streams are synced; exit 1; --reset-stream re-reads it",
    async () => {
      const db = Path.join(temp.dir, "damaged.db")
      const first = await cli(syncSince(db, since), fast())
      expect(first.code).toBe(0)
      const streams = (await readCheckpointRows(db)).map((r) => r.stream)
      const deposits = JSON.stringify(["deposits"])
      const [a, b] = streams.filter((s) => s !== deposits)
      await damage(db, deposits, "{garbage")
      await damage(db, a, "null")
      await damage(db, b, "{\"time\":-5,\"ids\":[]}")
      // A new record of a healthy stream: it must arrive although three streams are damaged.
      const late = lateTransfer(4242, Date.now() - 60_000)
      await running.run(running.server.store.insertTransfers([late]))

      const result = await cli(syncSince(db, since), fast())
      expect(result.code).toBe(1)
      expect(result.stdout).toMatch(/^synced \d+ streams into /m)
      const lines = result.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      const [line] = lines
      expect(line).toMatch(/^broker-history: the checkpoints of 3 streams are damaged: /)
      expect(line).toContain(`${deposits}: the checkpoint {garbage is not JSON`)
      expect(line).toContain(`${a}: the checkpoint null is null, not an object`)
      expect(line).toContain(`${b}: the checkpoint {"time":-5,"ids":[]} has time -5`)
      expect(line).toContain("skipped")
      expect(line).toContain(`--reset-stream '${deposits}' --reset-stream '${a}' --reset-stream '${b}'`)
      expect(line).not.toMatch(/unexpected|Expected|└─/)
      const { transfers } = await readTables(db)
      expect(transfers.some((t) => t.tran_id === late.tranId)).toBe(true)

      // One stream reset: the other two are still reported.
      const one = await cli([...syncSince(db, since), "--reset-stream", deposits], fast())
      expect(one.code).toBe(1)
      expect(one.stdout).toContain(`reset the checkpoint of 1 stream: ${deposits}`)
      expect(one.stderr).toMatch(/the checkpoints of 2 streams are damaged/)
      expect(one.stderr).not.toContain(`${deposits}:`)

      const all = await cli([...syncSince(db, since), "--reset-stream", "all"], fast())
      expect(all.stderr).toBe("")
      expect(all.code).toBe(0)
      await expectTablesFrom(running, db, t0 - 3 * year)
      for (const row of await readCheckpointRows(db)) expect(JSON.parse(row.checkpoint).time).toBeGreaterThan(0)
    },
    120_000
  )

  it("a checkpoint after the service's now names the stream and the reset, not --since", async () => {
    const db = Path.join(temp.dir, "future.db")
    const first = await cli(syncSince(db, since), fast())
    expect(first.code).toBe(0)
    const [a, b] = (await readCheckpointRows(db)).map((r) => r.stream).filter((s) => s.startsWith("[\"transfers\""))
    // Just ahead (hours: the service refuses the range) and far ahead (centuries: refused before any request).
    await damage(db, a, JSON.stringify({ time: Date.now() + 3 * 3_600_000, ids: [] }))
    await damage(db, b, JSON.stringify({ time: Date.now() + 400 * 365 * day, ids: [] }))
    await execute(db, (sql) => [sql`UPDATE sync_checkpoints SET covered_since = NULL WHERE stream = ${b}`])
    const before = await requests()
    const result = await cli(syncSince(db, since), fast())
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^broker-history: the checkpoints of 2 streams are damaged: /)
    expect(result.stderr).toContain(`${a}: its time`)
    expect(result.stderr).toContain(`${b}: its time`)
    expect(result.stderr).toContain("after the service's now")
    expect(result.stderr).toContain(`--reset-stream '${a}' --reset-stream '${b}'`)
    expect(result.stderr).not.toMatch(/fix since|must not be after until/)
    // The far one sent nothing: no backfill towards year 2400.
    expect((await requests()) - before).toBeLessThan(200)
    const reset = await cli([...syncSince(db, since), "--reset-stream", a, "--reset-stream", b], fast())
    expect(reset.stderr).toBe("")
    expect(reset.code).toBe(0)
  }, 120_000)

  it("--reset-stream takes a stream id or all; anything else is a usage error before anything is opened", async () => {
    const db = Path.join(temp.dir, "reset-usage.db")
    const result = await cli(["sync", "--db", db, "--reset-stream", "deposits"], fast())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      "broker-history: --reset-stream: \"deposits\" is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '[\"deposits\"]') or all\n"
    )
    expect(Fs.existsSync(db)).toBe(false)
  }, 60_000)
})
