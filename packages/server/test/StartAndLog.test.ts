// The service's own words: why it could not start (StartError's message for each cause), the line per
// request (never a query string, never a forged line) and the line it logs once it listens.
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Logger } from "effect"
import { ReferenceServer } from "../src/index.js"
import * as App from "../src/internal/http/App.js"

/** Node's error for a socket that could not listen, wrapped as the platform wraps it. */
const listenFailure = (code: string, message = `listen ${code}`) =>
  new Error("", { cause: Object.assign(new Error(message), { code }) })

describe("StartError", () => {
  it("a socket that could not listen: the usual codes in words, with the flag to change", () => {
    const message = (cause: unknown) =>
      new ReferenceServer.StartError({ reason: "Listen", cause, address: "127.0.0.1:80" }).message
    expect(message(listenFailure("EACCES"))).toBe(
      "cannot listen on 127.0.0.1:80: permission denied (EACCES); ports below 1024 need privileges: choose another --port"
    )
    expect(message(listenFailure("EADDRNOTAVAIL"))).toBe(
      "cannot listen on 127.0.0.1:80: the address is not one of this machine's (EADDRNOTAVAIL); choose another " +
        "--host, such as 127.0.0.1"
    )
    for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
      expect(message(listenFailure(code))).toBe(
        `cannot listen on 127.0.0.1:80: the host name does not resolve (${code}); choose another --host, such as 127.0.0.1`
      )
    }
    // Any other code: the innermost message of the cause chain.
    expect(message(listenFailure("EMFILE", "too many open files"))).toBe(
      "cannot listen on 127.0.0.1:80: too many open files"
    )
    expect(new ReferenceServer.StartError({ reason: "Listen", cause: "no address" }).message).toBe(
      "cannot listen: no address"
    )
  })

  it("a database that could not be opened: the innermost message; invalid options: the problem as given", () => {
    const cause = new Error("open failed", { cause: new Error("unable to open database file") })
    expect(new ReferenceServer.StartError({ reason: "Database", cause }).message).toBe(
      "cannot open the database: unable to open database file"
    )
    expect(new ReferenceServer.StartError({ reason: "Options", cause: "port must be a number" }).message).toBe(
      "invalid options: port must be a number"
    )
  })
})

describe("the line per request", () => {
  it("method, path without its query string, outcome and whole milliseconds", () => {
    expect(App.requestLine("GET", "/api/v3/ping?signature=abc&timestamp=1", 200, 1.6)).toBe("GET /api/v3/ping 200 2ms")
    expect(App.requestLine("GET", "/api/v3/time", "dropped", 0)).toBe("GET /api/v3/time dropped 0ms")
  })

  it("a hostile path cannot forge a line: spaces, control and non-ASCII characters escaped, long paths cut", () => {
    expect(App.loggablePath("/a b\r\n2026-01-01T00:00:00.000Z INFO forged")).toBe(
      "/a%20b%0D%0A2026-01-01T00:00:00.000Z%20INFO%20forged"
    )
    expect(App.loggablePath("/é")).toBe("/%C3%A9")
    expect(App.loggablePath(`/${"x".repeat(300)}?q=1`)).toBe(`/${"x".repeat(199)}...`)
  })
})

describe("the listening line", () => {
  /** What `serveForever` logs once it listens, with `subAccounts` seeded (none: no seed). */
  const listeningLine = (subAccounts: number | undefined) =>
    Effect.gen(function*() {
      const logged = yield* Deferred.make<string>()
      const logger = Logger.make(({ message }) => Deferred.unsafeDone(logged, Effect.succeed(String(message))))
      const seed = subAccounts === undefined ? undefined : { seed: 1, transfers: 0, deposits: 0, subAccounts }
      const serving = yield* Effect.fork(
        ReferenceServer.serveForever({ seed }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      )
      const line = yield* Deferred.await(logged)
      yield* Fiber.interrupt(serving)
      return line
    })

  it.live("names the sub-accounts: none, up to three in full, more as the first and the last, with their count", () =>
    Effect.gen(function*() {
      expect(yield* listeningLine(undefined)).toMatch(
        /^listening on http:\/\/127\.0\.0\.1:\d+ \(0 transfers, 0 deposits; API keys: mx0vglDEMOKEY0+; sub-accounts: none\)$/
      )
      expect(yield* listeningLine(3)).toMatch(
        /; sub-accounts: sub001@broker\.test, sub002@broker\.test, sub003@broker\.test \(3\)\)$/
      )
      expect(yield* listeningLine(4)).toMatch(/; sub-accounts: sub001@broker\.test … sub004@broker\.test \(4\)\)$/)
    }))
})
