// `serve` and `demo` end to end as child processes; `pnpm demo` (examples/src/demo.ts) prints the
// same summary as `broker-history demo`.
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { cli, cliEnv, killChildren, packageDir, spawn, until } from "./support/Harness.js"

afterEach(killChildren)

const withoutTimings = (text: string) =>
  text.replace(/on http:\/\/127\.0\.0\.1:\d+/g, "on http://127.0.0.1:PORT").replace(/[\d.]+ s\b/g, "N s")

describe("serve", () => {
  it("serves a seeded history on a free loopback port that the export commands read; SIGTERM exits 0", async () => {
    const server = spawn(
      ["serve", "--port", "0", "--transfers", "300", "--deposits", "60", "--years", "1", "--no-log"],
      cliEnv("http://unused.invalid"),
      60_000
    )
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(server.stderr()), 30_000, "the server to listen")
    const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]
    expect(server.stderr()).toContain("(300 transfers, 60 deposits; API keys: mx0vglDEMOKEY")
    const deposits = await cli(["deposits", "--since", "2y"], cliEnv(baseUrl))
    expect(deposits.code).toBe(0)
    expect(deposits.stdout.trimEnd().split("\n")).toHaveLength(60)
    server.process.kill("SIGTERM")
    const result = await server.done
    expect(result.code).toBe(0)
    // Its log (stderr) holds the listening line and nothing went wrong; stdout carries nothing.
    expect(result.stderr).not.toMatch(/ERROR|FATAL|\n\s+at /)
    expect(result.stdout).toBe("")
  }, 60_000)

  it("refuses a bad flag value with the server's own message and exit 2", async () => {
    const result = await cli(["serve", "--port", "70000"], cliEnv("http://unused.invalid"))
    expect(result.code).toBe(2)
    expect(result.stderr).toBe("broker-history: --port must be at most 65535, got 70000\n")
    const fault = await cli(["serve", "--fault-drop", "2"], cliEnv("http://unused.invalid"))
    expect(fault.code).toBe(2)
    expect(fault.stderr).toContain("--fault-drop must be a probability from 0 to 1")
  }, 30_000)
})

describe("demo", () => {
  it("runs the main job and checks it; pnpm demo prints the same summary", async () => {
    const env = { ...cliEnv("http://unused.invalid"), DEMO_TRANSFERS: "1500", DEMO_DEPOSITS: "300" }
    const result = await cli(["demo"], env, 120_000)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("seeding 1500 transfers and 300 deposits over 2 years…")
    expect(result.stdout).toContain("check: every record the service holds for these queries came back exactly once")
    const flags = await cli(
      ["demo", "--transfers", "1500", "--deposits", "300"],
      cliEnv("http://unused.invalid"),
      120_000
    )
    expect(flags.code).toBe(0)
    expect(withoutTimings(flags.stdout)).toBe(withoutTimings(result.stdout))

    const example = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const root = Path.resolve(packageDir, "../..")
      const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", "examples/src/demo.ts"], {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "inherit"]
      })
      let stdout = ""
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
      const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve({ code, stdout })
      })
    })
    expect(example.code).toBe(0)
    expect(withoutTimings(example.stdout)).toBe(withoutTimings(result.stdout))
  }, 300_000)
  it("SIGTERM before its check: exit 143 and a line saying the demo did not finish", async () => {
    const env = { ...cliEnv("http://unused.invalid"), DEMO_TRANSFERS: "20000", DEMO_DEPOSITS: "2000" }
    const demo = spawn(["demo"], env, 60_000)
    await until(() => demo.stdout().includes("seeding"), 30_000, "the demo to start seeding")
    demo.process.kill("SIGTERM")
    const result = await demo.done
    expect(result.code).toBe(143)
    expect(result.stderr).toBe("broker-history: interrupted: the demo stopped before its check\n")
    expect(result.stdout).not.toContain("check:")
  }, 60_000)
})
