// What each command loads: `transfers` and `deposits` must not load SQLite, PostgreSQL or the
// reference service (they are optional dependencies, loaded by `sync`, `serve` and `demo` only).
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { bin, packageDir, tempDir } from "./support/Harness.js"

const temp = tempDir()
afterAll(() => temp.cleanup())

/** Runs the CLI with every resolved module recorded; returns the exit code and the module URLs. */
const loads = (args: ReadonlyArray<string>) => {
  const file = Path.join(temp.dir, `loads-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`)
  const result = ChildProcess.spawnSync(
    process.execPath,
    ["--import", Path.join(packageDir, "test/support/record-loads.mjs"), bin, ...args],
    {
      env: { ...process.env, BROKER_API_KEY: "mx0vglEXAMPLE", BROKER_SECRET_KEY: "x", RECORD_LOADS_FILE: file },
      encoding: "utf8",
      timeout: 60_000
    }
  )
  const urls = Fs.existsSync(file) ? Fs.readFileSync(file, "utf8").trim().split("\n") : []
  return { code: result.status, stderr: result.stderr, urls }
}

// The database drivers, and the reference service itself with its internal modules. Its flag table,
// `CommandLine`, is light, and so are the internal modules it reads its settings with and the pure
// limiter arithmetic its rate-limit shapes name (`Limiters`); any other internal module of the server
// (split out of the service, the store or the seed) is heavy.
const heavy =
  /better-sqlite3|sql-sqlite-node|sql-pg|\/pg@|server\/(src|dist)\/(ReferenceServer|Store|Seed|internal\/(?!(ServerSettings|Setting|SettingChecks|Limiters)\.)\w+)\./

describe("lazy loading", () => {
  it("transfers and deposits load no database driver and no reference service", () => {
    const unreachable = ["--base-url", "http://127.0.0.1:1", "--max-retries", "0"]
    for (
      const args of [
        ["deposits", ...unreachable],
        ["transfers", "--from-account-type", "SPOT", "--to-account-type", "SPOT", ...unreachable]
      ]
    ) {
      const { code, stderr, urls } = loads(args)
      expect(code, stderr).toBe(4)
      expect(urls.length).toBeGreaterThan(50)
      expect(urls.filter((url) => heavy.test(url))).toEqual([])
    }
  }, 60_000)

  it("serve --help loads neither; the demo does load SQLite (the check sees what it looks for)", () => {
    const help = loads(["serve", "--help"])
    expect(help.code).toBe(0)
    expect(help.urls.filter((url) => heavy.test(url))).toEqual([])
    const demo = loads(["demo", "--transfers", "1", "--deposits", "1", "--concurrency", "1"])
    expect(demo.code, demo.stderr).toBe(0)
    expect(demo.urls.some((url) => /better-sqlite3|sql-sqlite-node/.test(url))).toBe(true)
    // The service's internal modules are caught too, and the flag table's are not.
    expect(demo.urls.some((url) => /server\/(src|dist)\/internal\/Routes\./.test(url) && heavy.test(url))).toBe(true)
    expect(help.urls.some((url) => /server\/(src|dist)\/internal\/ServerSettings\./.test(url))).toBe(true)
  }, 60_000)
})
