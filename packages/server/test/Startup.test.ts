// main.ts as a child process: what a person sees when the port is taken, when the host is not
// loopback with the published demo key, and which sub-accounts the seeded history holds.
import { CliConfig, Options } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { ConfigProvider, Effect, Either } from "effect"
import * as ChildProcess from "node:child_process"
import * as Net from "node:net"
import * as Path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { CommandLine } from "../src/index.js"

const packageDir = Path.join(import.meta.dirname, "..")

interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const children = new Set<ChildProcess.ChildProcess>()

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  children.clear()
})

/** The environment without BROKER_SERVER_* from the outside, so only the flags count. */
const cleanEnv = (): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("BROKER_")) env[k] = v
  return env
}

/**
 * Runs `src/main.ts args…` (with `env` added to the environment); resolves when it exits, or (when
 * `until` is given) as soon as its log (stderr) matches, then stops it with SIGTERM. Killed with
 * SIGKILL after `timeoutMs` in any case.
 */
const run = (args: ReadonlyArray<string>, until?: RegExp, timeoutMs = 30_000, env: Record<string, string> = {}) =>
  new Promise<Result>((resolve) => {
    const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", "src/main.ts", ...args], {
      cwd: packageDir,
      env: { ...cleanEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.add(child)
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d
      if (until !== undefined && until.test(stderr)) child.kill("SIGTERM")
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("close", (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, stdout, stderr })
    })
  })

/** A loopback port held by a plain node:net server until `close`. */
const occupyPort = () =>
  new Promise<{ readonly port: number; readonly close: () => Promise<void> }>((resolve, reject) => {
    const server = Net.createServer((socket) => socket.destroy())
    server.once("error", reject)
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const address = server.address() as Net.AddressInfo
      resolve({ port: address.port, close: () => new Promise((done) => server.close(() => done())) })
    })
  })

describe("main.ts at start", () => {
  it("a port in use: one plain line that says so, exit 1, no stack trace", async () => {
    const busy = await occupyPort()
    try {
      const result = await run(["--port", String(busy.port), "--transfers", "0", "--deposits", "0"])
      expect(result.code).toBe(1)
      expect(result.stderr).toBe(
        `cannot listen on 127.0.0.1:${busy.port}: the address is already in use (EADDRINUSE); ` +
          "choose another --port or stop the process using it\n"
      )
      expect(result.stdout + result.stderr).not.toContain("    at ")
    } finally {
      await busy.close()
    }
  }, 40_000)

  // 192.0.2.1 (TEST-NET-1) is no address of this machine: even a regression could not listen there.
  it("a non-loopback --host without --key is refused (exit 2): the demo key's secret is public", async () => {
    const result = await run(["--host", "192.0.2.1", "--port", "0", "--transfers", "0", "--deposits", "0"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--host 192.0.2.1 is not a loopback address")
    expect(result.stderr).toContain("--key apiKey:secretKey:PERMS")
    expect(result.stderr).toContain("--host 127.0.0.1")
    expect(result.stdout + result.stderr).not.toMatch(/listening on/)
  }, 40_000)

  it("the listening line names the seeded sub-accounts and their count", async () => {
    const result = await run(
      ["--port", "0", "--transfers", "200", "--deposits", "20", "--sub-accounts", "5", "--no-log"],
      /listening on .*\n/
    )
    const line = /.*listening on .*/.exec(result.stderr)?.[0] ?? ""
    expect(line).toContain("sub-accounts: sub001@broker.test … sub005@broker.test (5)")
    const many = await run(["--port", "0", "--transfers", "200", "--deposits", "20", "--no-log"], /listening on .*\n/)
    expect(many.stderr).toContain("sub-accounts: sub001@broker.test … sub040@broker.test (40)")
  }, 60_000)
})

describe("main.ts and its environment", () => {
  const listening = /listening on .*\n/

  it("a BROKER_SERVER_* variable stands in for its absent flag; the flag wins when both are given", async () => {
    const env = {
      BROKER_SERVER_TRANSFERS: "150",
      BROKER_SERVER_DEPOSITS: "15",
      BROKER_SERVER_SUB_ACCOUNTS: "5",
      BROKER_SERVER_PORT: "0"
    }
    const fromEnv = await run([], listening, 30_000, env)
    expect(fromEnv.code).toBe(0) // stopped by SIGTERM
    expect(fromEnv.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(150 transfers, 15 deposits;/)
    expect(fromEnv.stderr).toMatch(/sub-accounts: sub001@broker\.test .*sub005@broker\.test \(5\)\)/)
    const flagsWin = await run(["--transfers", "120", "--sub-accounts", "6"], listening, 30_000, env)
    expect(flagsWin.stderr).toMatch(/\(120 transfers, 15 deposits;/)
    expect(flagsWin.stderr).toMatch(/sub-accounts: sub001@broker\.test .*sub006@broker\.test \(6\)\)/)
  }, 60_000)

  it("a bad variable is a usage error (exit 2) that names the variable", async () => {
    const result = await run([], undefined, 30_000, { BROKER_SERVER_FAULT_DROP: "2", BROKER_SERVER_PORT: "0" })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `BROKER_SERVER_FAULT_DROP must be a probability from 0 to 1, got "2"\n\nRun with --help for every flag.\n`
    )
    const host = await run(["--port", "0"], undefined, 30_000, { BROKER_SERVER_HOST: "192.0.2.1" })
    expect(host.code).toBe(2)
    expect(host.stderr).toContain("BROKER_SERVER_HOST 192.0.2.1 is not a loopback address")
  }, 60_000)
})

describe("CommandLine: hosts and keys", () => {
  const hostOf = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
    Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provide(NodeContext.layer),
      Effect.either,
      Effect.runSync
    )
  const refusal = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    const result = hostOf(args, env)
    return Either.isLeft(result) ? JSON.stringify(result.left.error) : ""
  }

  it("loopback hosts serve with the demo key", () => {
    for (
      const host of [
        "127.0.0.1",
        "127.0.0.2",
        "localhost",
        "LOCALHOST",
        "::1",
        "[::1]",
        "0:0:0:0:0:0:0:1",
        "::ffff:127.0.0.1"
      ]
    ) {
      expect(hostOf(["--host", host])._tag).toBe("Right")
    }
  })

  it("other hosts need an explicit key: a flag or BROKER_SERVER_KEYS", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "::ffff:10.0.0.1", "example.test", "128.0.0.1"]) {
      expect(refusal(["--host", host])).toContain(`--host ${host} is not a loopback address`)
      expect(hostOf(["--host", host, "--key", "k1:s1:SPOT_TRANSFER_READ"])._tag).toBe("Right")
      expect(hostOf(["--host", host], { BROKER_SERVER_KEYS: "k1:s1:SPOT_DEPOSIT_READ" })._tag).toBe("Right")
    }
    expect(refusal([], { BROKER_SERVER_HOST: "0.0.0.0" })).toContain("BROKER_SERVER_HOST 0.0.0.0 is not a loopback")
    // A blank BROKER_SERVER_KEYS is no key: the demo key would be served.
    expect(refusal(["--host", "0.0.0.0"], { BROKER_SERVER_KEYS: " " })).toContain("is not a loopback address")
  })
})
