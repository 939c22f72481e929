// The undici carrier against real servers on 127.0.0.1: its deadline timer, the body limit
// (declared, counted, endless) and redirects left as they are.
import { Duration, Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Undici from "undici"
import * as UndiciExchange from "../../src/internal/request/UndiciExchange.js"
import { describe, expect, it } from "../support/EffectTest.js"

/** A server on 127.0.0.1 answering every request with an empty page. */
const server = Effect.acquireRelease(
  Effect.callback<Http.Server>((resume) => {
    const s = Http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[]"))
    s.listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
  }),
  (s) =>
    Effect.callback<void>((resume) => {
      s.close(() => resume(Effect.void))
    })
)

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length

describe("UndiciExchange", () => {
  it.scopedLive("the deadline timer never keeps the process alive: none is left holding it after an answer", () =>
    Effect.gen(function*() {
      const s = yield* server
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() => new Undici.Agent()),
        (a) => Effect.promise(() => a.close())
      )
      const exchange = UndiciExchange.make(agent, Duration.seconds(30), 16 * 1024 * 1024)
      const before = timers()
      const reply = yield* exchange(
        `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
        "/page",
        {},
        { endpoint: "transferHistory" },
        1
      )
      expect(reply.status).toBe(200)
      // The deadlines' ticker runs until its next tick (up to a second) after the last answer; a
      // command that ends right after its last request must not wait for it.
      expect(timers()).toBeLessThanOrEqual(before)
    }))
})

/** A server on 127.0.0.1 answering with `script`; `closed` resolves when an answer's connection closes early. */
const scripted = (script: (response: Http.ServerResponse) => void) => {
  const closedEarly: Array<Promise<boolean>> = []
  return Effect.map(
    Effect.acquireRelease(
      Effect.callback<Http.Server>((resume) => {
        const s = Http.createServer((_req, res) => {
          closedEarly.push(new Promise((resolve) => res.on("close", () => resolve(!res.writableFinished))))
          script(res)
        })
        s.listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
      }),
      (s) =>
        Effect.callback<void>((resume) => {
          s.closeAllConnections()
          s.close(() => resume(Effect.void))
        })
    ),
    (s) => ({ origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, closedEarly })
  )
}

const exchangeWith = (maxBytes: number) =>
  Effect.map(
    Effect.acquireRelease(Effect.sync(() => new Undici.Agent()), (a) => Effect.promise(() => a.destroy())),
    (agent) => UndiciExchange.make(agent, Duration.seconds(30), maxBytes)
  )

const ctx = { endpoint: "transferHistory" }

describe("UndiciExchange bodies", () => {
  it.scopedLive("a body of exactly maxBytes is read whole; one byte more fails as TooLarge, nothing of it kept", () =>
    Effect.gen(function*() {
      let size = 4096
      const s = yield* scripted((res) => {
        res.writeHead(200)
        // Chunked (no Content-Length): only counting can tell.
        res.write("[" + " ".repeat(size - 2))
        res.end("]")
      })
      const exchange = yield* exchangeWith(4096)
      const reply = yield* exchange(s.origin, "/page", {}, ctx, 1)
      expect(reply.body.length).toBe(4096)
      size = 4097
      const error = yield* Effect.flip(exchange(s.origin, "/page", {}, ctx, 1))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "TooLarge", status: 200, excerpt: "" })
    }))

  it.scopedLive("an endless body stops being read once past maxBytes", () =>
    Effect.gen(function*() {
      let written = 0
      const s = yield* scripted((res) => {
        res.writeHead(200)
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        const pump = () => {
          while (!res.destroyed && written < 256 * 1024 * 1024) {
            written += chunk.length
            if (!res.write(chunk)) return void res.once("drain", pump)
          }
          res.destroy()
        }
        pump()
      })
      const exchange = yield* exchangeWith(1024 * 1024)
      const error = yield* Effect.flip(exchange(s.origin, "/page", {}, ctx, 1))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "TooLarge" })
      expect(yield* Effect.promise(() => s.closedEarly[0]!)).toBe(true)
      expect(written).toBeLessThan(64 * 1024 * 1024)
    }))

  it.scopedLive("a Content-Length above maxBytes fails before the body is read", () =>
    Effect.gen(function*() {
      const s = yield* scripted((res) => {
        res.writeHead(200, { "content-length": String(1024 * 1024 * 1024) })
        res.write("[")
      })
      const exchange = yield* exchangeWith(1024 * 1024)
      const error = yield* Effect.flip(exchange(s.origin, "/page", {}, ctx, 1))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "TooLarge" })
      expect((error as { description: string }).description).toContain("Content-Length 1073741824")
      expect(yield* Effect.promise(() => s.closedEarly[0]!)).toBe(true)
    }))

  it.scopedLive("a redirect comes back as it is, with its Location: undici's request does not follow it", () =>
    Effect.gen(function*() {
      const elsewhere = yield* scripted((res) => res.writeHead(200).end("[]"))
      const s = yield* scripted((res) => res.writeHead(301, { location: `${elsewhere.origin}/moved` }).end())
      const exchange = yield* exchangeWith(4096)
      const reply = yield* exchange(s.origin, "/page", {}, ctx, 1)
      expect(reply).toMatchObject({ status: 301, location: `${elsewhere.origin}/moved` })
      expect(elsewhere.closedEarly).toHaveLength(0)
    }))
})
