// Which requests reach a route: methods other than GET/HEAD get 405 with `Allow`, CONNECT a
// refusal and a closed connection, and only the exact path matches (as on the exchange).
import { Context, Effect, Exit, Layer, Scope } from "effect"
import * as Http from "node:http"
import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import { depositsPath, signedTarget, transfersPath } from "./support/Requests.js"

const subAccountListPath = "/api/v3/broker/sub-account/list"
const routes = ["/api/v3/time", "/api/v3/ping", transfersPath, depositsPath, subAccountListPath] as const

let server: ReferenceServer.Service
let scope: Scope.CloseableScope

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(
      ReferenceServer.layer({
        seed: { seed: 3, transfers: 200, deposits: 20, subAccounts: 4 },
        rateLimit: { limit: 100_000, window: 10_000 }
      }),
      scope
    )
  )
  server = Context.get(context, ReferenceServer.ReferenceServer)
}, 30_000)

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

interface Reply {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** One request with node:http (no keep-alive), bounded by a 5 s timeout. */
const request = (method: string, target: string, headers: Record<string, string> = {}) =>
  new Promise<Reply>((resolve, reject) => {
    const url = new URL(server.baseUrl)
    const req = Http.request(
      { host: url.hostname, port: url.port, method, path: target, agent: false, headers },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on(
          "end",
          () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") })
        )
        res.on("error", reject)
      }
    )
    req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${method} ${target} in 5 s`)))
    req.on("error", reject)
    req.end()
  })

/** Writes `text` on a raw socket and collects everything until the server closes it (at most 5 s). */
const raw = (text: string) =>
  new Promise<{ readonly received: string; readonly closedByServer: boolean }>((resolve, reject) => {
    const url = new URL(server.baseUrl)
    const socket = Net.connect({ host: url.hostname, port: Number(url.port) })
    let received = ""
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ received, closedByServer: false })
    }, 5_000)
    socket.setEncoding("utf8")
    socket.on("data", (d: string) => (received += d))
    socket.on("error", reject)
    socket.on("close", () => {
      clearTimeout(timer)
      resolve({ received, closedByServer: true })
    })
    socket.write(text)
  })

const expectErrorBody = (body: string, code: number) => {
  const parsed = JSON.parse(body) as { code: unknown; msg: unknown }
  expect(Object.keys(parsed).sort()).toEqual(["code", "msg"])
  expect(parsed.code).toBe(code)
  expect(typeof parsed.msg).toBe("string")
}

describe("methods", () => {
  it("GET and HEAD reach every route", async () => {
    for (const path of ["/api/v3/time", "/api/v3/ping"]) {
      expect((await request("GET", path)).status).toBe(200)
      const head = await request("HEAD", path)
      expect(head.status).toBe(200)
      expect(head.body).toBe("")
    }
  })

  it("other methods on a route: 405, Allow: GET, HEAD, and a {code,msg} body", async () => {
    for (const path of routes) {
      for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"]) {
        const reply = await request(method, path)
        expect({ method, path, status: reply.status }).toEqual({ method, path, status: 405 })
        expect(reply.headers.allow).toBe("GET, HEAD")
        expect(reply.headers["content-type"]).toMatch(/^application\/json/)
        expectErrorBody(reply.body, 405)
      }
    }
  })

  it("other methods on a signed route with a valid signature are still 405", async () => {
    const target = signedTarget(
      transfersPath,
      [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]],
      ApiKeys.demo
    )
    const reply = await request("POST", target, { "X-MEXC-APIKEY": ApiKeys.demo.apiKey })
    expect(reply.status).toBe(405)
  })

  it("unknown paths stay 404 whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const reply = await request(method, "/api/v3/nothing-here")
      expect(reply.status).toBe(404)
      expectErrorBody(reply.body, 404)
    }
  })

  it("CONNECT (any target) gets a {code,msg} refusal and the connection is closed", async () => {
    for (const target of ["127.0.0.1:9", "example.test:443", "/api/v3/time"]) {
      const reply = await raw(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`)
      expect(reply.closedByServer).toBe(true)
      expect(reply.received).toMatch(/^HTTP\/1\.1 405 /)
      expect(reply.received).toMatch(/\r\nAllow: GET, HEAD\r\n/i)
      expect(reply.received).toMatch(/\r\nConnection: close\r\n/i)
      expectErrorBody(reply.received.slice(reply.received.indexOf("\r\n\r\n") + 4), 405)
    }
  })
})

describe("exact paths", () => {
  const loose = (path: string) => [
    "/" + path,
    path + "/",
    path.toUpperCase(),
    path.replace("/v3/", "/V3/"),
    path.replace("/v3/", "//v3/")
  ]

  it("anything but the exact path is 404 with a {code,msg} body", async () => {
    for (const path of routes) {
      for (const target of loose(path)) {
        const reply = await request("GET", target)
        expect({ target, status: reply.status }).toEqual({ target, status: 404 })
        expectErrorBody(reply.body, 404)
      }
    }
  })

  it("the exact paths still answer", async () => {
    expect((await request("GET", "/api/v3/time")).status).toBe(200)
    expect((await request("GET", "/api/v3/ping?x=1")).status).toBe(200)
  })
})
