import * as Undici from "@effect/platform-node/Undici"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as UndiciExchange from "../../src/internal/UndiciExchange.js"

/** A server on 127.0.0.1 answering every request with an empty page. */
const server = Effect.acquireRelease(
  Effect.async<Http.Server>((resume) => {
    const s = Http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[]"))
    s.listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
  }),
  (s) =>
    Effect.async<void>((resume) => {
      s.close(() => resume(Effect.void))
    })
)

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length

describe("UndiciExchange", () => {
  it.scoped("the deadline timer never keeps the process alive: none is left holding it after an answer", () =>
    Effect.gen(function*() {
      const s = yield* server
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() => new Undici.Agent()),
        (a) => Effect.promise(() => a.close())
      )
      const exchange = UndiciExchange.make(agent, Duration.seconds(30))
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
