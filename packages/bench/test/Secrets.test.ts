// Secrets never leak: the soak runs with debug logging and a capturing tracer, then failing calls of
// every kind add their errors; the secret and every signature sent appear nowhere, and the API key
// travels only in its header.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import type { Faults } from "@broker-history/server"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import { capture, haystack } from "@broker-history/testing/Capture"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Tracer } from "effect"
import * as Soak from "../src/Soak.js"

const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 0, endTime: Soak.end } as const

/** A tracer that keeps nothing: the in-process reference service's own spans are not the client's. */
const inertTracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const span: Tracer.Span = {
      _tag: "Span",
      name,
      spanId: "inert",
      traceId: "inert",
      parent,
      context,
      status: { _tag: "Started", startTime },
      attributes: new Map(),
      links,
      sampled: false,
      kind,
      end: () => {},
      attribute: () => {},
      event: () => {},
      addLinks: () => {}
    }
    return span
  },
  context: (f) => f()
})

/** One failing page call per setting, each error kept. */
const failures = (errors: Array<unknown>, observe: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const client = (secretKey: string) =>
      BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
        baseUrl: server.baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(secretKey),
        requestTimeout: "200 millis",
        retry: { maxRetries: 1, baseDelay: "5 millis", maxDelay: "10 millis" }
      })))
    const settings: ReadonlyArray<Faults.FaultOptions> = [
      { serverError: 1 },
      { rateLimited: 1 },
      { drop: 1 },
      { hang: 1 },
      { truncate: 1 }
    ]
    for (const faults of settings) {
      yield* server.setFaults(faults)
      yield* observe(
        BrokerHistory.BrokerHistory.pipe(
          Effect.flatMap((h) => h.transferHistory(query)),
          Effect.provide(client(ApiKeys.demo.secretKey)),
          Effect.tapError((e) => Effect.sync(() => errors.push(e))),
          Effect.tapErrorCause(Effect.logError),
          Effect.ignore
        )
      )
    }
    yield* server.setFaults({})
    // A wrong secret: an authentication error whose request carried a signature made with it.
    yield* observe(
      BrokerHistory.BrokerHistory.pipe(
        Effect.flatMap((h) => h.depositHistory({})),
        Effect.provide(client("wrong-secret-0123456789")),
        Effect.tapError((e) => Effect.sync(() => errors.push(e))),
        Effect.tapErrorCause(Effect.logError),
        Effect.ignore
      )
    )
  }).pipe(Effect.provide(ReferenceServer.layer().pipe(Layer.provide(Layer.setTracer(inertTracer)))))

describe("secrets never leak", () => {
  it.live(
    "the secret and every signature are absent from debug logs, spans and errors; the key only in its header",
    () =>
      Effect.gen(function*() {
        const { captured, layer } = capture()
        const observe = <A, E>(self: Effect.Effect<A, E>) =>
          self.pipe(Effect.withSpan("secrets-test"), Effect.provide(layer as Layer.Layer<never>))
        const runs = yield* Effect.forEach(
          [1, 2, 3],
          (seed) => Soak.runSeed(seed, { ...Soak.ciOptions, seeds: 3 }, observe),
          { concurrency: 3 }
        )
        const errors: Array<unknown> = []
        yield* failures(errors, observe)

        for (const run of runs) expect(run.mismatch).toBeUndefined()
        const signed = runs.flatMap((r) => r.sent).filter((s) => s.path.includes("/broker/"))
        const signatures = signed.map((s) => /(?:^|&)signature=([0-9a-f]{64})(?:&|$)/.exec(s.query)?.[1])
        expect(signatures.every((s) => s !== undefined)).toBe(true)
        expect(errors.map((e) => (e as { _tag: string })._tag).sort()).toEqual(
          ["AuthenticationError", "RateLimited", "ServerError", "TransportError", "TransportError", "TransportError"]
        )
        const faultsMet = runs.reduce((a, r) => a + Object.values(r.faults).reduce((x, y) => x + y, 0), 0)
        expect(faultsMet).toBeGreaterThan(0)
        expect(captured.logs.some((l) => l.includes("broker request retried"))).toBe(true)
        expect(captured.spans.some((s) => s.name === "BrokerHttpClient.attempt")).toBe(true)

        const text = haystack(captured, errors)
        expect(text).toContain("broker.endpoint")
        for (const needle of [ApiKeys.demo.secretKey, "wrong-secret-0123456789", ApiKeys.demo.apiKey]) {
          expect(text.includes(needle), `leaked ${needle.slice(0, 6)}…`).toBe(false)
        }
        const leaked = signatures.filter((s) => text.includes(s!))
        expect(leaked).toEqual([])
        // The key is sent in its header on every signed request, and never in a query string.
        expect(signed.every((s) => s.headers["x-mexc-apikey"] === ApiKeys.demo.apiKey)).toBe(true)
        expect(signed.some((s) => s.query.includes(ApiKeys.demo.apiKey))).toBe(false)
        // Nothing searched was empty (the counts go in the message, not on the console).
        const searched = {
          signedRequests: signed.length,
          logLines: captured.logs.length,
          spans: captured.spans.length,
          errors: errors.length
        }
        for (const [what, n] of Object.entries(searched)) {
          expect(n, `${what}: ${JSON.stringify(searched)}`).toBeGreaterThan(0)
        }
      }),
    120_000
  )
})
