// `--proxy` and the proxy variables end to end: the CLI as a child process, a forward proxy (the
// `proxy` package) and the reference service, both on 127.0.0.1. Every request the service receives
// from the command came through the proxy, or none did.
import type * as Http from "node:http"
import { createProxy } from "proxy"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cli, cliEnv, useReferenceServer } from "./support/Harness.js"

const { running } = useReferenceServer({ seed: { seed: 9, transfers: 0, deposits: 1500 } })

/** The targets of the requests the proxy forwarded and of the tunnels it opened. */
const forwarded: Array<string> = []
const tunnels: Array<string> = []
const proxy = createProxy()
proxy.on("request", (request: Http.IncomingMessage) => forwarded.push(request.url ?? ""))
proxy.on("connect", (request: Http.IncomingMessage) => tunnels.push(request.url ?? ""))
let proxyUrl = ""
let env: Record<string, string>

beforeAll(async () => {
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const address = proxy.address()
  proxyUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
  for (const name of ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"]) {
    delete env[name]
  }
})
afterAll(async () => {
  proxy.closeAllConnections()
  await new Promise((resolve) => proxy.close(resolve))
})

/** Runs the deposits export; returns its result and the requests the service and the proxy saw meanwhile. */
const deposits = async (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => {
  const before = { service: (await running.run(running.server.stats)).requests, proxy: forwarded.length }
  const result = await cli(["deposits", "--since", "3y", "--concurrency", "4", ...args], { ...env, ...extra })
  return {
    result,
    lines: result.stdout.split("\n").filter((line) => line !== "").length,
    service: (await running.run(running.server.stats)).requests - before.service,
    proxy: forwarded.slice(before.proxy)
  }
}

describe("proxies", () => {
  it("--proxy URL: every request of the export goes through the proxy", async () => {
    const run = await deposits(["--proxy", proxyUrl])
    expect(run.result.stderr).toBe("")
    expect(run.result.code).toBe(0)
    expect(run.lines).toBeGreaterThan(100)
    expect(run.service).toBeGreaterThan(1)
    expect(run.proxy.length).toBe(run.service)
    expect(run.proxy.every((url) => url.startsWith(`${running.server.baseUrl}/api/v3/`))).toBe(true)
    expect(tunnels).toEqual([])
  }, 60_000)

  it("HTTP_PROXY is honoured by default; NO_PROXY=127.0.0.1 and --proxy none go direct", async () => {
    const byVariable = await deposits([], { HTTP_PROXY: proxyUrl })
    expect(byVariable.result.code, byVariable.result.stderr).toBe(0)
    expect(byVariable.service).toBeGreaterThan(1)
    expect(byVariable.proxy.length).toBe(byVariable.service)

    const excluded = await deposits([], { HTTP_PROXY: proxyUrl, NO_PROXY: "localhost,127.0.0.1" })
    const none = await deposits(["--proxy", "none"], { HTTP_PROXY: proxyUrl })
    for (const run of [excluded, none]) {
      expect(run.result.code, run.result.stderr).toBe(0)
      expect(run.lines).toBe(byVariable.lines)
      expect(run.service).toBeGreaterThan(1)
      expect(run.proxy).toEqual([])
    }
  }, 60_000)

  it("a bad proxy URL is a usage error naming it, without its credentials; nothing is sent", async () => {
    const flag = await deposits(["--proxy", "htp://user:hunter2@127.0.0.1:1"])
    expect(flag.result.code).toBe(2)
    expect(flag.result.stdout).toBe("")
    expect(flag.result.stderr).toContain("BROKER_PROXY (or --proxy): must be an http:// or https:// proxy URL")
    const variable = await deposits([], { HTTPS_PROXY: "user:hunter2@proxy.internal:3128" })
    expect(variable.result.code).toBe(2)
    expect(variable.result.stderr).toContain("HTTPS_PROXY: must start with http:// or https://")
    for (const run of [flag, variable]) {
      expect(run.result.stderr).not.toContain("hunter2")
      expect(run.service).toBe(0)
      expect(run.proxy).toEqual([])
    }
  }, 60_000)

  it("demo reaches its own loopback service directly, whatever HTTP_PROXY says", async () => {
    const before = forwarded.length
    const result = await cli(["demo", "--transfers", "50", "--deposits", "50", "--concurrency", "1"], {
      ...env,
      HTTP_PROXY: proxyUrl
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("came back exactly once")
    expect(forwarded.length).toBe(before)
  }, 60_000)
})
