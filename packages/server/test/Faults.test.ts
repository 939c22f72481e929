import * as Prng from "@broker-history/core/random/Prng"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Either, Fiber, Layer } from "effect"
import { ApiKeys, Faults, ReferenceServer } from "../src/index.js"
import type { Reply } from "./support/Requests.js"
import { get, json, signedGet, transfersPath } from "./support/Requests.js"
import { withServer } from "./support/Server.js"

const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"], ["limit", "500"]] as const

/** A request's outcome as a label: its status, or how the transport failed. */
const outcome = (baseUrl: string) =>
  signedGet(baseUrl, transfersPath, route, ApiKeys.demo, { timeoutMs: 300 }).pipe(
    Effect.map((reply: Reply) => String(reply.status)),
    Effect.catchTag("TransportFailure", (failure) => Effect.succeed(failure.reason))
  )

const label: Record<Faults.Fault, string> = {
  serverError: "500",
  rateLimited: "429",
  drop: "error",
  hang: "timeout",
  truncate: "truncated"
}

describe("fault injection", () => {
  withServer({ seed: { seed: 9, transfers: 2_000, deposits: 10 } })("switches", (it) => {
    const server = ReferenceServer.ReferenceServer
    const withFaults = <A, E, R>(faults: Faults.FaultOptions, effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(server, (s) =>
        s.setFaults(faults).pipe(
          Effect.zipRight(effect),
          Effect.ensuring(s.setFaults({}))
        ))

    it.effect("serverError: 500 {code:500,msg:\"Internal error\"}", () =>
      withFaults(
        { serverError: 1 },
        Effect.gen(function*() {
          const { baseUrl, stats } = yield* server
          const before = (yield* stats).faults.serverError ?? 0
          const reply = yield* signedGet(baseUrl, transfersPath, route, ApiKeys.demo)
          expect([reply.status, json(reply)]).toEqual([500, { code: 500, msg: "Internal error" }])
          expect((yield* stats).faults.serverError).toBe(before + 1)
        })
      ))

    it.effect("rateLimited: 429 with the configured integer Retry-After (default 1)", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* server
        const limited = yield* withFaults(
          { rateLimited: 1, retryAfterSeconds: 3 },
          signedGet(baseUrl, transfersPath, route, ApiKeys.demo)
        )
        expect([limited.status, json(limited), limited.headers["retry-after"]]).toEqual([
          429,
          { code: 429, msg: "Too many requests." },
          "3"
        ])
        const byDefault = yield* withFaults({ rateLimited: 1 }, get(baseUrl, "/api/v3/ping"))
        expect([byDefault.status, byDefault.headers["retry-after"]]).toEqual([429, "1"])
      }))

    it.effect("drop: the connection closes without an answer", () =>
      Effect.gen(function*() {
        const { baseUrl, stats } = yield* server
        const failure = yield* withFaults({ drop: 1 }, Effect.flip(get(baseUrl, "/api/v3/ping")))
        expect(failure.reason).toBe("error")
        expect((yield* stats).faults.drop).toBeGreaterThanOrEqual(1)
      }))

    it.effect("hang: no answer until the client gives up; the server keeps serving others", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* server
        const failure = yield* withFaults({ hang: 1 }, Effect.flip(get(baseUrl, "/api/v3/ping", { timeoutMs: 300 })))
        expect(failure.reason).toBe("timeout")
        expect((yield* get(baseUrl, "/api/v3/ping")).status).toBe(200)
      }))

    it.effect("truncate: a 200 whose body stops short of its Content-Length", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* server
        const failure = yield* withFaults(
          { truncate: 1 },
          Effect.flip(signedGet(baseUrl, transfersPath, route, ApiKeys.demo))
        )
        expect(failure.reason).toBe("truncated")
        expect(failure.status).toBe(200)
        expect(failure.received).toBeGreaterThan(0)
        expect(failure.received).toBeLessThan(failure.expected!)
      }))

    it.effect("latency: every answer waits; a client timeout shorter than it ends the request", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* server
        const failure = yield* withFaults(
          { latency: "5 seconds" },
          Effect.flip(get(baseUrl, "/api/v3/ping", { timeoutMs: 200 }))
        )
        expect(failure.reason).toBe("timeout")
        expect((yield* get(baseUrl, "/api/v3/ping", { timeoutMs: 2000 })).status).toBe(200)
      }))

    it.effect(
      "decisions replay from the seed: same seed, same sequence, as predicted by Faults.decide",
      () =>
        Effect.gen(function*() {
          const { baseUrl } = yield* server
          const faults: Faults.FaultOptions = {
            seed: 99,
            serverError: 0.15,
            rateLimited: 0.15,
            drop: 0.1,
            hang: 0.05,
            truncate: 0.1
          }
          const sequence = (options: Faults.FaultOptions) =>
            withFaults(options, Effect.forEach(Array.from({ length: 30 }), () => outcome(baseUrl)))
          const first = yield* sequence(faults)
          const second = yield* sequence(faults)
          expect(second).toEqual(first)
          // The same decisions computed offline from the seed.
          const settings = Faults.normalize(faults)
          const draw = Prng.mulberry32(99)
          const predicted = first.map(() => {
            const fault = Faults.decide(settings, draw())
            return fault === undefined ? "200" : label[fault]
          })
          expect(first).toEqual(predicted)
          expect(new Set(first).size).toBeGreaterThanOrEqual(4)
          expect(yield* sequence({ ...faults, seed: 100 })).not.toEqual(first)
        }),
      60_000
    )

    it.effect("stats count requests, answers by status and faults by kind", () =>
      Effect.gen(function*() {
        const { baseUrl, stats } = yield* server
        const before = yield* stats
        yield* get(baseUrl, "/api/v3/ping")
        yield* withFaults({ serverError: 1 }, get(baseUrl, "/api/v3/ping"))
        const after = yield* stats
        expect(after.requests).toBe(before.requests + 2)
        expect(after.byStatus[200]).toBe((before.byStatus[200] ?? 0) + 1)
        expect(after.byStatus[500]).toBe((before.byStatus[500] ?? 0) + 1)
        expect(after.faults.serverError).toBe((before.faults.serverError ?? 0) + 1)
      }))
  })

  describe("shutdown", () => {
    layer(Layer.empty, { excludeTestServices: true })("with a hung request", (it) => {
      it.effect("closing the server's scope ends hung connections instead of waiting for them", () =>
        Effect.gen(function*() {
          const request = yield* Effect.scoped(Effect.gen(function*() {
            const context = yield* Layer.build(ReferenceServer.layer({ faults: { hang: 1 } }))
            const server = Context.get(context, ReferenceServer.ReferenceServer)
            const fiber = yield* Effect.forkDaemon(get(server.baseUrl, "/api/v3/ping"))
            // Wait until the server holds the request.
            while (((yield* server.stats).faults.hang ?? 0) === 0) yield* Effect.sleep("10 millis")
            return fiber
          }))
          // The scope closed (or this test would time out), and the client saw its connection end.
          const result = yield* Effect.either(Fiber.join(request))
          expect(Either.isLeft(result) && result.left.reason).toBe("error")
        }))
    })
  })
})
