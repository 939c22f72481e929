// The command against a broken or malicious service on 127.0.0.1: a refusal sent with status 200 ends
// as the refusal it is (exit code 3), and nothing the service writes reaches the terminal raw.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { cli, killChildren } from "./support/Harness.js"

let answer: (response: Http.ServerResponse) => void = (response) => response.writeHead(200).end("[]")
const server = Http.createServer((request, response) => {
  if (request.url?.startsWith("/api/v3/time")) {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ serverTime: Date.now() }))
    return
  }
  answer(response)
})
let baseUrl = ""
beforeAll(() =>
  new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resolve()
    })
  })
)
afterEach(killChildren)
afterAll(() =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
)

const json = (status: number, body: unknown) => (response: Http.ServerResponse) =>
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))

/** The child's environment: no BROKER_* from the outside, this service. */
const env = () => {
  const inherited: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("BROKER_")) inherited[k] = v
  return {
    ...inherited,
    BROKER_BASE_URL: baseUrl,
    BROKER_API_KEY: "hostile-cli-key",
    BROKER_SECRET_KEY: "hostile-cli-secret"
  }
}

const transfers = ["transfers", "--from-account-type", "SPOT", "--to-account-type", "FUTURES", "--max-retries", "0"]

describe("against a hostile service", () => {
  it("a 200 carrying {code:700001,msg} exits 3 (authentication), naming the API key", async () => {
    answer = json(200, { code: 700001, msg: "API-key format invalid." })
    const result = await cli(transfers, env())
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain("BROKER_API_KEY")
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
  }, 60_000)

  it("escape sequences and line breaks in the service's msg never reach stderr; a 5 MB msg is cut", async () => {
    answer = json(401, { code: 700002, msg: "\u001b]0;owned\u0007\u001b[2J\u001b[31mred\r\nsecond line\u009b1m" })
    const escaped = await cli(transfers, env())
    expect(escaped.code, escaped.stderr).toBe(3)
    expect(escaped.stderr).not.toContain("\u001b")
    // eslint-disable-next-line no-control-regex
    expect(escaped.stderr.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    expect(escaped.stderr).toContain("second line")
    answer = json(400, { code: 33333, msg: "Param is error: " + "x".repeat(5_000_000) })
    const long = await cli(transfers, env())
    expect(long.code, long.stderr).toBe(1)
    expect(long.stderr.length).toBeLessThan(1000)
  }, 60_000)

  it("a redirect is not followed: exit 1 (a setting to fix, not the network), naming where it points", async () => {
    answer = (response) => response.writeHead(302, { location: "https://elsewhere.example/api?x=1" }).end()
    const result = await cli(transfers, env())
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain("https://elsewhere.example/api")
    expect(result.stderr).toContain("BROKER_BASE_URL")
    expect(result.stderr).not.toContain("giving up")
  }, 60_000)
})
