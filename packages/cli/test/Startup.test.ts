// What each command loads: `transfers` and `deposits` must not load SQLite, PostgreSQL or the
// reference service (they are optional dependencies, loaded by `sync`, `serve` and `demo` only), nor
// the run of `sync` (its store, migrator and follower), which would only slow their start.
import { afterAll, describe, expect, it } from "vitest"
import { bin, tempDir } from "./support/Harness.js"
import { heavy, recordLoads, syncRun } from "./support/Loads.js"

const temp = tempDir()
afterAll(() => temp.cleanup())

/** Runs the workspace CLI with every resolved module recorded; returns the exit code and the module URLs. */
const loads = (args: ReadonlyArray<string>) => recordLoads(bin, args, temp.dir)

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
      expect(urls.filter((url) => syncRun.test(url))).toEqual([])
    }
  }, 60_000)

  it("sync loads its run only when it runs (the check sees what it looks for)", () => {
    const help = loads(["sync", "--help"])
    expect(help.code).toBe(0)
    expect(help.urls.filter((url) => syncRun.test(url))).toEqual([])
    // A dry run opens no database, but it runs the command's program, with its store and run.
    const dry = loads([
      "sync",
      "--db",
      "history.db",
      "--dry-run",
      "--base-url",
      "http://127.0.0.1:1",
      "--max-retries",
      "0"
    ])
    expect(dry.code, dry.stderr).toBe(4)
    expect(dry.urls.some((url) => /cli\/src\/internal\/sync\/Program\./.test(url) && syncRun.test(url))).toBe(true)
    expect(dry.urls.filter((url) => heavy.test(url))).toEqual([])
  }, 60_000)

  it("serve --help loads neither; the demo does load SQLite (the check sees what it looks for)", () => {
    const help = loads(["serve", "--help"])
    expect(help.code).toBe(0)
    expect(help.urls.filter((url) => heavy.test(url))).toEqual([])
    const demo = loads(["demo", "--transfers", "1", "--deposits", "1", "--concurrency", "1"])
    expect(demo.code, demo.stderr).toBe(0)
    expect(demo.urls.some((url) => /better-sqlite3|sql-sqlite-node/.test(url))).toBe(true)
    // The service's internal modules are caught too, and the flag table's are not.
    expect(demo.urls.some((url) => /server\/(src|dist)\/internal\/http\/Routes\./.test(url) && heavy.test(url))).toBe(
      true
    )
    expect(help.urls.some((url) => /server\/(src|dist)\/internal\/settings\/ServerSettings\./.test(url))).toBe(true)
  }, 60_000)
})
