// `transfers` / `deposits` end to end: the CLI as a child process against the reference service on
// 127.0.0.1; what it writes is compared with the service's own data.
import { parse as parseCsv } from "csv-parse/sync"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import * as Csv from "../src/internal/export/Csv.js"
import * as Encoding from "../src/internal/export/Encoding.js"
import { cli, cliEnv, depositOf, shell, startServer, transferOf, useReferenceServer } from "./support/Harness.js"

const { running, temp } = useReferenceServer({
  seed: { seed: 7, transfers: 4000, deposits: 3000, subAccounts: 5 }
})
let env: Record<string, string>
beforeAll(() => {
  env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
})

const masterToSub = {
  fromAccount: null,
  toAccount: "sub001@broker.test",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES"
} as const
const transferArgs = [
  "--from-account-type",
  "SPOT",
  "--to-account-type",
  "FUTURES",
  "--to-account",
  "sub001@broker.test"
]

describe("transfers", () => {
  it("NDJSON: one record a line, byte for byte the service's records in ascending order", async () => {
    const expected = (await running.run(running.server.store.allTransfers(masterToSub))).map(transferOf)
    expect(expected.length).toBeGreaterThan(20)
    const result = await cli(["transfers", ...transferArgs, "--since", "3y"], env)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const lines = result.stdout.split("\n")
    expect(lines.pop()).toBe("")
    expect(lines).toEqual(expected.map((r) => JSON.stringify(r)))
    // Amounts stay the exact text the service sent.
    const rows = await running.run(running.server.store.allTransfers(masterToSub))
    expect(lines.map((l) => JSON.parse(l).amount)).toEqual(rows.map((r) => r.amount))
  })

  it("CSV: a header row and RFC 4180 rows equal to the service's records", async () => {
    const expected = (await running.run(running.server.store.allTransfers(masterToSub))).map(transferOf)
    const result = await cli(["transfers", ...transferArgs, "--since", "3y", "--format", "csv"], env)
    expect(result.code).toBe(0)
    expect(result.stderr).toBe("")
    const rows = parseCsv(result.stdout) as Array<Array<string>>
    expect(rows[0]).toEqual(Encoding.transferColumns)
    expect(rows.slice(1)).toEqual(
      expected.map((r) => Encoding.transferColumns.map((c) => String(r[c])))
    )
    expect(result.stdout.endsWith("\r\n")).toBe(true)
  })

  it("JSON: one array, to a file with --out", async () => {
    const expected = (await running.run(running.server.store.allTransfers(masterToSub))).map(transferOf)
    const file = Path.join(temp.dir, "transfers.json")
    const result = await cli(["transfers", ...transferArgs, "--since", "3y", "--format", "json", "--out", file], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe("")
    expect(JSON.parse(Fs.readFileSync(file, "utf8"))).toEqual(expected)
  })

  it("an empty history is an empty array / nothing / a header", async () => {
    const args = ["transfers", ...transferArgs, "--since", "2000-01-01", "--until", "2000-01-02"]
    expect((await cli([...args, "--format", "json"], env)).stdout).toBe("[]\n")
    expect((await cli(args, env)).stdout).toBe("")
    expect((await cli([...args, "--format", "csv"], env)).stdout).toBe(Csv.row(Encoding.transferColumns))
  })
})

describe("deposits", () => {
  it("NDJSON: every deposit once, ascending, byte for byte", async () => {
    const rows = await running.run(running.server.store.allDeposits())
    const result = await cli(["deposits", "--since", "3y", "--concurrency", "4"], env)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const lines = result.stdout.trimEnd().split("\n")
    expect(lines.length).toBe(rows.length)
    expect([...lines].sort()).toEqual(rows.map((r) => JSON.stringify(depositOf(r))).sort())
    const times = lines.map((l) => JSON.parse(l).insertTime as number)
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it("CSV with --coin and --status by name", async () => {
    const rows = (await running.run(running.server.store.allDeposits({ coin: "USDT", status: 5 }))).map(depositOf)
    expect(rows.length).toBeGreaterThan(10)
    const result = await cli(
      ["deposits", "--since", "3y", "--coin", "USDT", "--status", "success", "--format", "csv"],
      env
    )
    expect(result.code).toBe(0)
    const parsed = parseCsv(result.stdout) as Array<Array<string>>
    expect(parsed[0]).toEqual(Encoding.depositColumns)
    const expected = rows.map((r) => Encoding.depositColumns.map((c) => String(r[c])))
    const byKey = (a: Array<string>, b: Array<string>) => a.join("\u0000") < b.join("\u0000") ? -1 : 1
    expect(parsed.slice(1).sort(byKey)).toEqual(expected.sort(byKey))
  })

  it("| head -1: exits 0, quietly", async () => {
    const result = await shell(
      `"${process.execPath}" "${
        Path.resolve(__dirname, "../bin/broker-history.mjs")
      }" deposits --since 3y | head -1; ` +
        `echo "exit=\${PIPESTATUS[0]}"`,
      env
    )
    const [first, status] = result.stdout.trimEnd().split("\n")
    expect(JSON.parse(first).coin).toBeTypeOf("string")
    expect(status).toBe("exit=0")
    expect(result.stderr).toBe("")
  })
})

describe("failures: one sentence, exit code by kind", () => {
  it("unknown API key → 3, names BROKER_API_KEY", async () => {
    const result = await cli(["deposits"], { ...env, BROKER_API_KEY: "mx0vglUNKNOWN" })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/^broker-history: .*700001.*BROKER_API_KEY/)
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it("missing secret → 3, says which variable to set", async () => {
    const result = await cli(["deposits"], { ...env, BROKER_SECRET_KEY: "" })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain("BROKER_SECRET_KEY (or --secret-key) is not set")
  })

  it("wrong secret → 3, names BROKER_SECRET_KEY", async () => {
    const result = await cli(["deposits"], { ...env, BROKER_SECRET_KEY: "0".repeat(32) })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/700002.*BROKER_SECRET_KEY/)
  })

  it("bad flag value, unknown flag, missing flag → 2", async () => {
    expect((await cli(["deposits", "--since", "yesterday"], env)).code).toBe(2)
    expect((await cli(["deposits", "--bogus"], env)).code).toBe(2)
    const missing = await cli(["transfers"], env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("from-account-type")
    const badConfig = await cli(["deposits", "--rate-limit", "0"], env)
    expect(badConfig.code).toBe(2)
    expect(badConfig.stderr).toContain("BROKER_RATE_LIMIT (or --rate-limit)")
  })

  it("the service refuses → 1 with its code and message", async () => {
    // A service that refuses every transfer window wider than 30 seconds: it answers 33333, and the
    // stream, which narrows a window refused as too wide down to one minute, gives up there.
    const strict = await startServer({ maxWindow: { transfers: "30 seconds" } })
    try {
      const result = await cli(["transfers", "--from-account-type", "SPOT", "--to-account-type", "SPOT"], {
        ...env,
        BROKER_BASE_URL: strict.server.baseUrl
      })
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/^broker-history: .*33333 Param is error/)
      expect(result.stderr).toContain("set BROKER_TRANSFER_MAX_WINDOW to a window it always accepts")
    } finally {
      await strict.close()
    }
  })

  it("nobody listening → 4 after the retries; --verbose adds the cause", async () => {
    const args = ["deposits", "--base-url", "http://127.0.0.1:1", "--max-retries", "1"]
    const quiet = await cli(args, env)
    expect(quiet.code).toBe(4)
    expect(quiet.stderr).toMatch(/ECONNREFUSED.*after 2 attempts.*giving up/)
    expect(quiet.stderr.trim().split("\n")).toHaveLength(1)
    const verbose = await cli([...args, "--verbose"], env)
    expect(verbose.code).toBe(4)
    expect(verbose.stderr.trim().split("\n").length).toBeGreaterThan(1)
  })

  it("an unwritable --out → 1", async () => {
    const result = await cli(["deposits", "--out", Path.join(temp.dir, "missing-dir", "x.ndjson")], env)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^broker-history: cannot create .*x\.ndjson/)
  })
})

const ansi = new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g")

describe("--help", () => {
  it("every command documents every flag and variable with its default", async () => {
    for (const command of ["transfers", "deposits", "sync", "serve", "demo"]) {
      const result = await cli([command, "--help"], env)
      expect(result.code, command).toBe(0)
      const text = result.stdout.replace(ansi, "")
      const flags = [...text.matchAll(/^--?-?([a-z-]+)[ \n]/gm)].map((m) => m[1])
      expect(flags.length, command).toBeGreaterThan(2)
      if (command !== "serve" && command !== "demo") {
        for (const variable of ["BROKER_BASE_URL", "BROKER_API_KEY", "BROKER_SECRET_KEY", "BROKER_RATE_LIMIT"]) {
          expect(text, `${command} ${variable}`).toContain(variable)
        }
      }
      if (command === "serve") expect(text).toContain("BROKER_SERVER_PORT")
      if (command === "demo") expect(text).toContain("DEMO_TRANSFERS")
      // Each option of ours says its default.
      const blocks = text.split(/\n(?=--)/).filter((b) =>
        /^--[a-z]/.test(b) && !/^--(completions|log-level|wizard|version)/.test(b)
      )
      for (const block of blocks) {
        if (/required/.test(block)) continue
        expect(block, `${command}: ${block.split("\n")[0]}`).toMatch(/default/)
      }
    }
  }, 60_000)
})
