// The published bin: the bundle the package's build writes (scripts/bundle.mjs), run with plain
// Node against the reference service on 127.0.0.1. An export loads only the bundle's own files and
// Node's built-in modules, none of the lazy chunks of sync, serve, demo or OpenTelemetry; it writes
// what the workspace bin writes; and each lazy chunk works when its command runs: sync into SQLite
// (the native driver resolved from the package's dependencies, or a sentence saying it is missing),
// telemetry to a loopback OTLP receiver, and the demo (the reference service). What it imports from
// outside is Node's and the native addons only, and the package declares no other dependency.
import * as Fs from "node:fs"
import * as NodeHttp from "node:http"
import * as Path from "node:path"
import * as Url from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Bundle } from "./support/Bundle.js"
import { buildBundle } from "./support/Bundle.js"
import { bin, cli, cliEnv, packageDir, useReferenceServer } from "./support/Harness.js"
import { heavy, recordLoads, syncRun } from "./support/Loads.js"
import { expectTablesEqualService, syncArgs } from "./support/Scenario.js"

const { running, temp } = useReferenceServer({ seed: { seed: 31, transfers: 1500, deposits: 400, subAccounts: 4 } })

let bundle: Bundle
beforeAll(() => {
  bundle = buildBundle()
}, 120_000)
afterAll(() => bundle?.cleanup())

/** The child's environment for the service, without any OTEL_* variable of this process. */
const env = (extra: Record<string, string> = {}) => {
  const base = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200", ...extra })
  for (const name of Object.keys(base)) if (name.startsWith("OTEL_") && !(name in extra)) delete base[name]
  return base
}

/** The source files bundled into the loaded files. */
const inputs = (urls: ReadonlyArray<string>) => urls.flatMap((url) => bundle.inputsOf(url))

describe("the published bin (bundle)", () => {
  it("imports only Node's modules and native addons from outside; the package installs nothing else", () => {
    // The addons esbuild cannot bundle (scripts/bundle.mjs): the SQLite driver, and the helpers of ws
    // and pg that they load only when present.
    expect(bundle.externalPackages).toEqual(["better-sqlite3", "bufferutil", "pg-native", "utf-8-validate"])
    // Everything else is inside: declaring any of it would install a second copy that nothing loads,
    // and an Effect 3 package there would meet a project's Effect 4 (ERESOLVE, or hoisted onto it).
    const manifest = JSON.parse(Fs.readFileSync(Path.join(packageDir, "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >
    expect(manifest.dependencies).toBeUndefined()
    expect(manifest.peerDependencies).toBeUndefined()
    expect(Object.keys(manifest.optionalDependencies ?? {})).toEqual(["better-sqlite3"])
  })

  it("an export loads the bundle's files and Node's built-in modules only, none of the other commands' chunks", () => {
    const unreachable = ["--base-url", "http://127.0.0.1:1", "--max-retries", "0"]
    const { code, stderr, urls } = recordLoads(bundle.bin, ["deposits", ...unreachable], temp.dir)
    expect(code, stderr).toBe(4)
    const dir = Url.pathToFileURL(bundle.dir).href + "/"
    expect(urls.filter((url) => !url.startsWith("node:") && !url.startsWith(dir))).toEqual([])
    const loaded = inputs(urls)
    expect(loaded.some((input) => input === "src/internal/export/Command.ts")).toBe(true)
    expect(loaded.filter((input) => heavy.test(input) || syncRun.test(input) || /opentelemetry/.test(input)))
      .toEqual([])
    // The check sees what it looks for: a dry run of sync loads the chunk of its run.
    const dry = recordLoads(bundle.bin, ["sync", "--db", "history.db", "--dry-run", ...unreachable], temp.dir)
    expect(dry.code, dry.stderr).toBe(4)
    expect(inputs(dry.urls).some((input) => input === "src/internal/sync/Program.ts")).toBe(true)
  }, 60_000)

  it("writes what the workspace bin writes, and the same --help", async () => {
    const args = ["deposits", "--since", "2y"]
    const [bundled, workspace] = await Promise.all([
      cli(args, env(), 60_000, bundle.bin),
      cli(args, env(), 60_000, bin)
    ])
    expect(bundled.stderr).toBe("")
    expect(bundled.code).toBe(0)
    expect(bundled.stdout.split("\n").length).toBeGreaterThan(100)
    expect(bundled.stdout).toBe(workspace.stdout)
    const [help, workspaceHelp] = await Promise.all([
      cli(["--help"], env(), 60_000, bundle.bin),
      cli(["--help"], env(), 60_000, bin)
    ])
    expect(help.code).toBe(0)
    expect(help.stdout).toBe(workspaceHelp.stdout)
  }, 90_000)

  it("sync into SQLite: the tables hold exactly the service's data (better-sqlite3 resolved at run time)", async () => {
    // The bundle holds no copy of the driver: the sync succeeds only if Node found the package's.
    const db = Path.join(temp.dir, "bundle.db")
    const result = await cli(syncArgs(db), env(), 90_000, bundle.bin)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^synced \d+ streams into .*bundle\.db: applied [1-9]/m)
    await expectTablesEqualService(running, db)
  }, 90_000)

  it(
    "without its optional SQLite driver: exports work, sync into SQLite fails with the sentence (exit 1)",
    async () => {
      // A copy outside the package: Node finds no better-sqlite3 from there, as after an install that
      // could not build it.
      const copy = Path.join(temp.dir, "no-driver")
      Fs.cpSync(bundle.dir, copy, { recursive: true })
      const bin = Path.join(copy, "broker-history.js")
      const exported = await cli(["deposits", "--since", "2y"], env(), 60_000, bin)
      expect(exported.stderr).toBe("")
      expect(exported.code).toBe(0)
      const synced = await cli(syncArgs(Path.join(temp.dir, "no-driver.db")), env(), 60_000, bin)
      expect(synced.code).toBe(1)
      expect(synced.stderr).toMatch(
        /^broker-history: the SQLite driver is not installed \(Cannot find package 'better-sqlite3'/
      )
      expect(synced.stdout).not.toMatch(/^synced/m)
    },
    60_000
  )

  it("--otlp-endpoint: the telemetry chunk sends spans and metrics to a loopback receiver", async () => {
    const paths: Array<string> = []
    const receiver = NodeHttp.createServer((request, response) => {
      request.resume().on("end", () => {
        paths.push(request.url ?? "")
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    try {
      const address = receiver.address()
      const endpoint = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
      const result = await cli(["deposits", "--since", "2y", "--otlp-endpoint", endpoint], env(), 60_000, bundle.bin)
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      expect(paths).toContain("/v1/traces")
      expect(paths).toContain("/v1/metrics")
    } finally {
      receiver.closeAllConnections()
      await new Promise((resolve) => receiver.close(resolve))
    }
  }, 60_000)

  it("demo: the reference service and SQLite from their chunks, the check passes", async () => {
    const result = await cli(
      ["demo", "--transfers", "1", "--deposits", "1", "--concurrency", "1"],
      env(),
      90_000,
      bundle.bin
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("check: every record the service holds for these queries came back exactly once")
  }, 120_000)
})
