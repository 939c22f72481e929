// `broker-history serve` at start, as a child process: a port in use, a non-loopback host with the
// published demo key, and the seeded sub-accounts named in the listening line.
import * as Net from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { cli, cliEnv, killChildren, spawn, until } from "./support/Harness.js"

afterEach(killChildren)

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

describe("serve at start", () => {
  it("a port in use: one sentence that says so, exit 1, no stack trace", async () => {
    const busy = await occupyPort()
    try {
      const result = await cli(
        ["serve", "--port", String(busy.port), "--transfers", "0", "--deposits", "0"],
        cliEnv("http://unused.invalid")
      )
      expect(result.code).toBe(1)
      expect(result.stderr).toBe(
        `broker-history: cannot listen on 127.0.0.1:${busy.port}: the address is already in use (EADDRINUSE); ` +
          "choose another --port or stop the process using it\n"
      )
      expect(result.stdout + result.stderr).not.toContain("    at ")
    } finally {
      await busy.close()
    }
  }, 60_000)

  // 192.0.2.1 (TEST-NET-1) is no address of this machine: even a regression could not listen there.
  it("a non-loopback --host without --key is a usage error (exit 2)", async () => {
    const result = await cli(
      ["serve", "--host", "192.0.2.1", "--port", "0", "--transfers", "0", "--deposits", "0"],
      cliEnv("http://unused.invalid")
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("broker-history: --host 192.0.2.1 is not a loopback address")
    expect(result.stderr).toContain("--key apiKey:secretKey:PERMS")
    expect(result.stdout + result.stderr).not.toMatch(/listening on/)
  }, 60_000)

  it("a BROKER_SERVER_* variable stands in for its absent flag; the flag wins when both are given", async () => {
    const env = cliEnv("http://unused.invalid", {
      BROKER_SERVER_PORT: "0",
      BROKER_SERVER_TRANSFERS: "150",
      BROKER_SERVER_DEPOSITS: "15",
      BROKER_SERVER_SUB_ACCOUNTS: "5"
    })
    const fromEnv = spawn(["serve"], env, 60_000)
    await until(() => /listening on .*\n/.test(fromEnv.stderr()), 30_000, "the server to listen")
    expect(fromEnv.stderr()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(150 transfers, 15 deposits;/)
    expect(fromEnv.stderr()).toContain("sub-accounts: sub001@broker.test … sub005@broker.test (5)")
    fromEnv.process.kill("SIGTERM")
    expect((await fromEnv.done).code).toBe(0)

    const flagsWin = spawn(["serve", "--transfers", "120", "--sub-accounts", "6"], env, 60_000)
    await until(() => /listening on .*\n/.test(flagsWin.stderr()), 30_000, "the server to listen")
    expect(flagsWin.stderr()).toMatch(/\(120 transfers, 15 deposits;/)
    expect(flagsWin.stderr()).toMatch(/sub-accounts: sub001@broker\.test .*sub006@broker\.test \(6\)\)/)
    flagsWin.process.kill("SIGTERM")
    expect((await flagsWin.done).code).toBe(0)
  }, 90_000)

  it("a bad variable is a usage error (exit 2) that names the variable", async () => {
    const result = await cli(
      ["serve"],
      cliEnv("http://unused.invalid", { BROKER_SERVER_PORT: "0", BROKER_SERVER_FAULT_HANG: "yes" })
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `broker-history: BROKER_SERVER_FAULT_HANG must be a probability from 0 to 1, got "yes"\n`
    )
  }, 60_000)

  it("the listening line names the seeded sub-accounts and their count", async () => {
    const server = spawn(
      ["serve", "--port", "0", "--transfers", "200", "--deposits", "20", "--sub-accounts", "7", "--no-log"],
      cliEnv("http://unused.invalid"),
      60_000
    )
    await until(() => /listening on .*\n/.test(server.stderr()), 30_000, "the server to listen")
    expect(server.stderr()).toContain("sub-accounts: sub001@broker.test … sub007@broker.test (7)")
    server.process.kill("SIGTERM")
    expect((await server.done).code).toBe(0)
  }, 60_000)
})
