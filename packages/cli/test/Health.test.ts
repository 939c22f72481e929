// The health of a following sync: the --health address and its checks, the endpoints (in this
// process, on 127.0.0.1) answering from SyncHealth, a busy address refused, the ready gauge, and the
// database retries with their two outage lines.
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Layer, Logger, Metric, MetricState } from "effect"
import * as Http from "node:http"
import * as Net from "node:net"
import { UsageError } from "../src/internal/shared/ExitCode.js"
import * as Flags from "../src/internal/sync/Flags.js"
import * as Health from "../src/internal/sync/health/Health.js"
import * as HealthServer from "../src/internal/sync/health/HealthServer.js"

const get = (port: number, path: string, method = "GET", body?: string) =>
  new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const request = Http.request({ host: "127.0.0.1", port, path, method, agent: false }, (response) => {
      let text = ""
      response.setEncoding("utf8").on("data", (d: string) => (text += d))
      response.on(
        "end",
        () => resolve({ status: response.statusCode ?? 0, body: text, connection: response.headers.connection })
      )
    })
    request.on("error", reject)
    request.end(body)
  })

const options: Health.Options = {
  interval: 1_000,
  retry: { baseDelay: "5 millis", maxDelay: "20 millis" },
  profiles: ["acme", "globex"]
}

/** The endpoints on a free port of 127.0.0.1 with their SyncHealth, for the scope. */
const serving = Effect.gen(function*() {
  const context = yield* Layer.build(
    Layer.provideMerge(HealthServer.layer({ host: "127.0.0.1", port: 0 }, "--health"), Health.layer(options))
  )
  return {
    health: Context.get(context, Health.SyncHealth),
    port: Context.get(context, HealthServer.HealthServer).address.port
  }
})

describe("--health", () => {
  it("addresses: IPv4, localhost, [IPv6], :PORT; anything else refused with the forms allowed", () => {
    expect(HealthServer.parseAddress("127.0.0.1:9464")).toEqual(Either.right({ host: "127.0.0.1", port: 9464 }))
    expect(HealthServer.parseAddress(":9464")).toEqual(Either.right({ host: "", port: 9464 }))
    expect(HealthServer.parseAddress("[::1]:9464")).toEqual(Either.right({ host: "::1", port: 9464 }))
    expect(HealthServer.parseAddress("localhost:80")).toEqual(Either.right({ host: "localhost", port: 80 }))
    for (
      const bad of [
        "9464",
        "127.0.0.1",
        "127.0.0.1:0",
        ":65536",
        "::1:9464",
        "[nope]:1",
        "example.com:9464",
        "1.2.3:80",
        ""
      ]
    ) {
      const read = HealthServer.parseAddress(bad)
      expect(Either.isLeft(read), bad).toBe(true)
      if (Either.isLeft(read)) expect(read.left).toMatch(/^--health: .*; give HOST:PORT \(127\.0\.0\.1:9464\)/)
    }
  })

  it("refused without --follow; none given, none served", () => {
    expect(Flags.health({ health: ":9464", follow: false })).toEqual(
      Either.left(
        "--health needs --follow: the endpoints supervise a process that keeps running; run the sync with --follow, or drop --health"
      )
    )
    expect(Flags.health({ health: undefined, follow: true })).toEqual(Either.right(undefined))
    expect(Flags.health({ health: "[::1]:1", follow: true })).toEqual(Either.right({ host: "::1", port: 1 }))
  })

  it("the answers: /livez and /readyz with the report, anything else 404", () => {
    const body = { live: true, ready: false, profiles: [] }
    expect(HealthServer.answer("GET", "/livez", body)).toEqual({ status: 200, body })
    expect(HealthServer.answer("GET", "/readyz?verbose=1", body)).toEqual({ status: 503, body })
    expect(HealthServer.answer("HEAD", "/readyz", { ...body, ready: true }).status).toBe(200)
    expect(HealthServer.answer("GET", "/livez", { ...body, live: false }).status).toBe(503)
    expect(HealthServer.answer("POST", "/livez", body).status).toBe(404)
    expect(HealthServer.answer("GET", "/metrics", body).status).toBe(404)
    expect(HealthServer.answer("GET", "/livez/", body).status).toBe(404)
  })
})

describe("the endpoints", () => {
  it.live("profiles starting, catching up, following: 503 until every one follows with a recent success", () =>
    Effect.gen(function*() {
      const { health, port } = yield* serving
      const before = yield* Effect.promise(() => get(port, "/readyz"))
      expect(before.status).toBe(503)
      expect(before.connection).toBe("close")
      expect(JSON.parse(before.body)).toEqual({
        live: true,
        ready: false,
        profiles: [
          { name: "acme", state: "starting", ready: false, lastSuccess: null, unavailableSince: null },
          { name: "globex", state: "starting", ready: false, lastSuccess: null, unavailableSince: null }
        ]
      })
      const lastSuccess = Date.now()
      const availability = Effect.succeed({ lastSuccess, unavailableSince: undefined, lastFailure: undefined })
      yield* health.profile("acme").attach(availability)
      yield* health.profile("globex").attach(availability)
      yield* health.profile("acme").phase("following")
      yield* health.profile("globex").phase("catching-up")
      expect((yield* Effect.promise(() => get(port, "/readyz"))).status).toBe(503)
      expect((yield* Effect.promise(() => get(port, "/livez"))).status).toBe(200)
      yield* health.profile("globex").phase("following")
      const ready = yield* Effect.promise(() => get(port, "/readyz"))
      expect(ready.status).toBe(200)
      expect(JSON.parse(ready.body).profiles[1]).toEqual({
        name: "globex",
        state: "following",
        ready: true,
        lastSuccess: new Date(lastSuccess).toISOString(),
        unavailableSince: null
      })
      // The service out for one profile (as its client reports it): that one is unavailable.
      yield* health.profile("globex").attach(
        Effect.succeed({ lastSuccess, unavailableSince: lastSuccess + 1, lastFailure: "connect ECONNREFUSED" })
      )
      const out = yield* Effect.promise(() => get(port, "/readyz"))
      expect(out.status).toBe(503)
      expect(JSON.parse(out.body).profiles[1].state).toBe("unavailable")
      // Nothing of the failure's text is answered.
      expect(out.body).not.toContain("ECONNREFUSED")
      // Every profile stopped: not live either.
      yield* health.profile("acme").phase("stopped")
      yield* health.profile("globex").phase("stopped")
      expect((yield* Effect.promise(() => get(port, "/livez"))).status).toBe(503)
      // Anything else: 404, a body sent with it is not read; HEAD has no body.
      expect((yield* Effect.promise(() => get(port, "/"))).status).toBe(404)
      expect((yield* Effect.promise(() => get(port, "/readyz", "POST", "x".repeat(100_000)))).status).toBe(404)
      const head = yield* Effect.promise(() => get(port, "/livez", "HEAD"))
      expect([head.status, head.body]).toEqual([503, ""])
    }).pipe(Effect.scoped))

  it.live("a busy address is refused with a UsageError (exit 2) naming it", () =>
    Effect.gen(function*() {
      const taken = Net.createServer()
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => {
          taken.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () => Effect.sync(() => taken.close())
      )
      const port = (taken.address() as Net.AddressInfo).port
      const error = yield* Effect.flip(
        Layer.build(HealthServer.layerFollow({ host: "127.0.0.1", port }, `--health 127.0.0.1:${port}`, options))
      )
      expect(error).toBeInstanceOf(UsageError)
      expect(error.message).toBe(
        `--health 127.0.0.1:${port}: cannot listen there (EADDRINUSE: the address is in use); choose a free port and an address of this host`
      )
    }).pipe(Effect.scoped))
})

describe("SyncHealth", () => {
  it.live("the ready gauge, tagged by profile: 1 while ready, else 0", () =>
    Effect.gen(function*() {
      const health = yield* Health.make({ ...options, profiles: ["gauged"] })
      const gauge = Metric.tagged(Health.readyGauge, "profile", "gauged")
      yield* health.profile("gauged").attach(
        Effect.sync(() => ({ lastSuccess: Date.now(), unavailableSince: undefined, lastFailure: undefined }))
      )
      yield* Effect.sleep("1100 millis")
      expect((yield* Metric.value(gauge)).value).toBe(0)
      yield* health.profile("gauged").phase("following")
      yield* Effect.sleep("1100 millis")
      expect((yield* Metric.value(gauge)).value).toBe(1)
      expect(MetricState.isGaugeState(yield* Metric.value(gauge))).toBe(true)
    }).pipe(Effect.scoped))

  it.live("a database operation is tried again while the database is unavailable; the outage is logged twice", () =>
    Effect.gen(function*() {
      const health = yield* Health.make(options)
      const lines: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
      })
      const refused = new SqlError({
        message: "Failed to acquire connection",
        cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
      })
      let attempts = 0
      const write = Effect.suspend(() => ++attempts <= 4 ? Effect.fail(refused) : Effect.succeed("written"))
      // Two writers meet the same outage: it is logged once.
      const [first, second] = yield* Effect.all([health.database(write), health.database(write)], {
        concurrency: 2
      }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      expect([first, second]).toEqual(["written", "written"])
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(
        /^WARN database unavailable: connect ECONNREFUSED 127\.0\.0\.1:5432; retrying in \d+ms, backing off up to 20ms, until it is back$/
      )
      expect(lines[1]).toMatch(/^INFO database available again after \d+ms unavailable \(\d+ failed attempts\)$/)
      // A permanent failure is not retried.
      const denied = new SqlError({
        message: "Failed to execute statement",
        cause: Object.assign(new Error("permission denied for table transfers"), { code: "42501" })
      })
      let tries = 0
      const error = yield* Effect.flip(health.database(Effect.suspend(() => (tries++, Effect.fail(denied)))))
      expect([error, tries]).toEqual([denied, 1])
    }).pipe(Effect.scoped))
})
