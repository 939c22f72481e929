// What an export must never do, end to end (the CLI as a child process against the reference
// service on 127.0.0.1): damage a file it did not finish, mix logs into the data, write spreadsheet
// formulas, send a request for a value it knows is invalid, or misread a date or a duration.
import type { Store } from "@broker-history/server"
import { parse as parseCsv } from "csv-parse/sync"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import * as Encoding from "../src/internal/export/Encoding.js"
import type { Running } from "./support/Harness.js"
import { cli, cliEnv, depositOf, killChildren, spawn, startServer, tempDir, until } from "./support/Harness.js"

let running: Running
let faulty: Running
let env: Record<string, string>
const temp = tempDir()

// Values from outside that a spreadsheet would run as formulas, and one that must stay a number.
const hostile: ReadonlyArray<Store.DepositRow> = [
  ["=HYPERLINK(\"http://x.invalid\",\"click\")", "+41-1-234", "@SUM(A1:A9)", "0.5"],
  ["-2+3", "\tTAB", "\rCR", "-12.50"],
  ["plain memo", "=1+1", "", "7"]
].map(([memo, address, addressTag, amount], i) => ({
  amount,
  coin: "FORMULA",
  network: "TEST",
  status: 5,
  address,
  addressTag,
  txId: `formula-${i}`,
  unlockConfirm: "1",
  confirmTimes: "1",
  insertTime: Date.parse("2026-01-01T00:00:00Z") + i,
  memo
}))

beforeAll(async () => {
  running = await startServer({
    seed: { seed: 11, transfers: 1500, deposits: 1500, subAccounts: 3 },
    rateLimit: { limit: 100_000, window: 10_000 }
  })
  await running.run(running.server.store.insertDeposits(hostile))
  faulty = await startServer({
    seed: { seed: 12, transfers: 200, deposits: 600, subAccounts: 2 },
    rateLimit: { limit: 100_000, window: 10_000 },
    faults: { seed: 3, serverError: 0.3, retryAfterSeconds: 0 }
  })
  env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
}, 60_000)

afterAll(async () => {
  killChildren()
  await running?.close()
  await faulty?.close()
  temp.cleanup()
})

afterEach(killChildren)

const listing = (dir: string) => Fs.readdirSync(dir).sort()

describe("--out FILE is replaced only by a completed export", () => {
  const previous = "{\"a previous\":\"export\"}\n"

  const failing: ReadonlyArray<readonly [string, ReadonlyArray<string>, Record<string, string>, number]> = [
    ["a bad flag value", ["--since", "garbage"], {}, 2],
    ["a wrong secret", [], { BROKER_SECRET_KEY: "0".repeat(32) }, 3],
    ["a closed port", ["--base-url", "http://127.0.0.1:1", "--max-retries", "0"], {}, 4]
  ]
  for (const [what, args, extra, code] of failing) {
    it(`${what}: exit ${code}, the old file untouched, no temporary file left`, async () => {
      const dir = Fs.mkdtempSync(Path.join(temp.dir, "out-"))
      const file = Path.join(dir, "deposits.ndjson")
      Fs.writeFileSync(file, previous)
      const result = await cli(["deposits", "--out", file, ...args], { ...env, ...extra })
      expect(result.code, result.stderr).toBe(code)
      expect(Fs.readFileSync(file, "utf8")).toBe(previous)
      expect(listing(dir)).toEqual(["deposits.ndjson"])
    })
  }

  it("a completed export replaces the file (keeping its permissions)", async () => {
    const dir = Fs.mkdtempSync(Path.join(temp.dir, "out-"))
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    Fs.chmodSync(file, 0o640)
    const result = await cli(["deposits", "--since", "3y", "--out", file], env)
    expect(result.code, result.stderr).toBe(0)
    const lines = Fs.readFileSync(file, "utf8").trimEnd().split("\n")
    expect(lines.length).toBe((await running.run(running.server.store.allDeposits())).length)
    expect(Fs.statSync(file).mode & 0o777).toBe(0o640)
    expect(listing(dir)).toEqual(["deposits.ndjson"])
  })

  it("SIGINT during an export: exit 130, one line says so, the old file kept, the temporary one removed", async () => {
    const dir = Fs.mkdtempSync(Path.join(temp.dir, "out-"))
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    // One request a second: the export is still running when the signal comes.
    const child = spawn(["deposits", "--since", "1y", "--out", file], { ...env, BROKER_RATE_LIMIT: "1" })
    await until(() => listing(dir).length === 2, 20_000, "the temporary file")
    await until(
      () => {
        const temporary = listing(dir).find((name) => name !== "deposits.ndjson")
        return temporary !== undefined && Fs.statSync(Path.join(dir, temporary)).size > 0
      },
      20_000,
      "records in the temporary file"
    )
    child.process.kill("SIGINT")
    const result = await child.done
    expect(result.code, result.stderr).toBe(130)
    expect(result.stderr).toBe(`broker-history: interrupted: the export is incomplete; ${file} was left untouched\n`)
    expect(Fs.readFileSync(file, "utf8")).toBe(previous)
    expect(listing(dir)).toEqual(["deposits.ndjson"])
  }, 60_000)
})

describe("stdout carries records only", () => {
  for (const where of ["before", "after"] as const) {
    it(`--log-level debug ${where} the subcommand: retries logged on stderr, stdout is NDJSON / CSV`, async () => {
      // 30 % of answers are 500s: enough retries that no request exhausts them (0.3^21).
      const faultyEnv = cliEnv(faulty.server.baseUrl, {
        BROKER_RATE_LIMIT: "500",
        BROKER_RETRY_BASE_DELAY: "1 millis",
        BROKER_MAX_RETRIES: "20"
      })
      for (const format of ["ndjson", "csv"]) {
        const command = ["deposits", "--since", "3y", "--format", format]
        const args = where === "before" ? ["--log-level", "debug", ...command] : [...command, "--log-level", "debug"]
        const result = await cli(args, faultyEnv)
        expect(result.code, result.stderr).toBe(0)
        expect(result.stderr).toContain("retried")
        expect(result.stdout).not.toContain("level=")
        if (format === "ndjson") {
          for (const line of result.stdout.trimEnd().split("\n")) expect(() => JSON.parse(line), line).not.toThrow()
        } else {
          const rows = parseCsv(result.stdout, { columns: true }) as Array<Record<string, string>>
          expect(rows.length).toBe((await faulty.run(faulty.server.store.allDeposits())).length)
        }
      }
    }, 60_000)
  }
})

describe("CSV never carries a spreadsheet formula unless asked", () => {
  const args = ["deposits", "--coin", "FORMULA", "--since", "2025-12-31", "--until", "2026-01-02", "--format", "csv"]

  it("by default, a value starting with = + - @ TAB or CR is prefixed with ' (negative decimals stay numbers)", async () => {
    const result = await cli(args, env)
    expect(result.code, result.stderr).toBe(0)
    const rows = parseCsv(result.stdout, { columns: true }) as Array<Record<string, string>>
    expect(rows.map((r) => [r.memo, r.address, r.addressTag, r.amount])).toEqual([
      ["'=HYPERLINK(\"http://x.invalid\",\"click\")", "'+41-1-234", "'@SUM(A1:A9)", "0.5"],
      ["'-2+3", "'\tTAB", "'\rCR", "-12.50"],
      ["plain memo", "'=1+1", "", "7"]
    ])
  })

  it("--csv-raw writes every value exactly as received", async () => {
    const result = await cli([...args, "--csv-raw"], env)
    expect(result.code, result.stderr).toBe(0)
    const rows = parseCsv(result.stdout, { columns: true }) as Array<Record<string, string>>
    const expected = hostile.map(depositOf)
    expect(rows).toEqual(expected.map((d) => Object.fromEntries(Encoding.depositColumns.map((c) => [c, String(d[c])]))))
  })
})

describe("values known to be invalid are refused before any request (exit 2)", () => {
  const requests = async () => (await running.run(running.server.stats)).requests

  for (
    const [what, args, says] of [
      ["--status BOGUS", ["deposits", "--status", "BOGUS"], "5 SUCCESS"],
      [
        "--from-account-type 'SPOT FUTURES'",
        ["transfers", "--from-account-type", "SPOT FUTURES", "--to-account-type", "SPOT"],
        "is not an account type: write one word of letters, digits and _"
      ],
      ["--since 2026-02-30", ["deposits", "--since", "2026-02-30"], "no such date"],
      ["--request-timeout soon", ["deposits", "--request-timeout", "soon"], "not a duration"]
    ] as const
  ) {
    it(what, async () => {
      const before = await requests()
      const result = await cli(args, env)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/^broker-history: /)
      expect(result.stderr).toContain(says)
      expect(await requests()).toBe(before)
    })
  }

  it("an account type in lower case is the exchange's one; --since 0 and --request-timeout 2s are accepted", async () => {
    const result = await cli(
      [
        "transfers",
        "--from-account-type",
        "spot",
        "--to-account-type",
        "futures",
        "--to-account",
        "sub001@broker.test",
        "--since",
        "0",
        "--request-timeout",
        "2s"
      ],
      env
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.trimEnd().split("\n").length).toBeGreaterThan(10)
  })

  it("the parser's own errors carry the broker-history: prefix too", async () => {
    for (const args of [["deposits", "--bogus"], ["transfers"], ["deposits", "--concurrency", "many"]]) {
      const result = await cli(args, env)
      expect(result.code, args.join(" ")).toBe(2)
      expect(result.stderr, args.join(" ")).toMatch(/^broker-history: \S/)
    }
  })
})
