// The client against a broken or malicious service on 127.0.0.1, over both carriers (undici driven
// directly, and the platform HttpClient: fetch and NodeHttpClient's undici): every request ends with a
// typed error whose message is one bounded line free of control characters, memory stays bounded, and
// nothing waits for longer than the settings allow.
import type { BrokerError } from "@broker-history/client"
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import type { Hostile } from "../support/HostileServer.js"
import { announced, endless, hostileServer, json, text } from "../support/HostileServer.js"

const apiKey = "hostile-test-key-4c1d9e"
const secretKey = "hostile-test-secret-8e2a7b"

const settings = (origin: string, overrides: Partial<BrokerConfig.Options>): BrokerConfig.Options => ({
  baseUrl: origin,
  apiKey: Redacted.make(apiKey),
  secretKey: Redacted.make(secretKey),
  retry: { maxRetries: 2, baseDelay: "10 millis", maxDelay: "20 millis" },
  requestTimeout: "15 seconds",
  ...overrides
})

type Carrier = readonly [
  name: string,
  layer: (options: BrokerConfig.Options) => Layer.Layer<BrokerHistory.BrokerHistory, unknown>
]

const carriers: ReadonlyArray<Carrier> = [
  ["undici (BrokerHistory.layerUndici)", (o) => BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer(o)))],
  [
    "fetch (BrokerHistory.layer + FetchHttpClient.layer, redirect: manual)",
    (o) =>
      BrokerHistory.layer.pipe(
        Layer.provide(BrokerConfig.layer(o)),
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
      )
  ],
  [
    "platform undici (BrokerHistory.layer + NodeHttpClient.layerUndici)",
    (o) => BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer(o)), Layer.provide(NodeHttpClient.layerUndici))
  ]
]

const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1000, endTime: 2000, page: 1 } as const

/** One page call against `hostile` over `carrier`; its error (a success fails the test). Bounded in time. */
const failure = (
  carrier: Carrier,
  hostile: Hostile,
  overrides: Partial<BrokerConfig.Options> = {}
): Effect.Effect<BrokerError.BrokerError> =>
  Effect.flatMap(BrokerHistory.BrokerHistory, (h) => h.transferHistory(query)).pipe(
    Effect.provide(carrier[1](settings(hostile.origin, overrides))),
    Effect.timeoutFail({ duration: "40 seconds", onTimeout: () => new Error("no outcome within 40 s") }),
    Effect.flip,
    Effect.map((e) => e as BrokerError.BrokerError),
    Effect.orDie
  )

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/

/** One line, no control character, at most `max` characters. */
const expectSafeMessage = (error: BrokerError.BrokerError, max = 1000) => {
  expect(error.message).not.toMatch(controls)
  expect(error.message.length).toBeLessThanOrEqual(max)
}

/** Heap and array buffers in use now. */
const memory = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** `effect`'s outcome and the most memory grew above its level before, sampled every 5 ms. */
const peakGrowth = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const before = memory()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, memory())), 5)
    return Effect.map(
      Effect.ensuring(effect, Effect.sync(() => clearInterval(sampler))),
      (result) => ({ result, growth: Math.max(peak, memory()) - before })
    )
  })

/** Whether the connection of an answer was closed before it was complete (bounded wait). */
const closedEarly = (hostile: Hostile, i: number) =>
  Effect.promise(() => hostile.served[i]!.closedEarly).pipe(
    Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("the connection stayed open") }),
    Effect.orDie
  )

const MiB = 1024 * 1024

describe.each(carriers)("against a hostile service, over %s", (...carrier) => {
  it.live(
    "an endless 200 body fails at maxResponseBytes as TooLarge, not retried; the connection is closed and memory stays bounded",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const hostile = yield* hostileServer(endless())
        const { growth, result: error } = yield* peakGrowth(failure(carrier, hostile, { maxResponseBytes: MiB }))
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "TooLarge", status: 200, attempts: 1 })
        expect(error.message).toContain("1048576 bytes")
        expect(error.message).toContain("raise maxResponseBytes")
        expectSafeMessage(error)
        expect(hostile.served).toHaveLength(1)
        expect(yield* closedEarly(hostile, 0)).toBe(true)
        // What the server got out before the client stopped reading: the limit plus socket buffers.
        expect(hostile.served[0]!.written).toBeLessThan(64 * MiB)
        expect(growth).toBeLessThan(128 * MiB)
      })),
    60_000
  )

  it.live(
    "a Content-Length above maxResponseBytes fails before the body is read, and the connection is closed",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const hostile = yield* hostileServer(announced(10 * 1024 * MiB))
        const error = yield* failure(carrier, hostile, { requestTimeout: "3 seconds", retry: { maxRetries: 1 } })
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "TooLarge", status: 200, attempts: 1 })
        expect(error.message).toContain("10737418240")
        expectSafeMessage(error)
        expect(hostile.served).toHaveLength(1)
        expect(yield* closedEarly(hostile, 0)).toBe(true)
      })),
    60_000
  )

  it.live(
    "200,000 nested [ are a one-line ResponseDecodeError, not a crash",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const hostile = yield* hostileServer(text(200, "[".repeat(200_000) + "]".repeat(200_000)))
        const error = yield* failure(carrier, hostile)
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "UnexpectedShape", attempts: 1 })
        expectSafeMessage(error, 600)
        expect(hostile.served).toHaveLength(1)
      })),
    60_000
  )

  it.live(
    "a 200 carrying {code:700001,msg} is the refusal it says: AuthenticationError (ApiKey)",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const hostile = yield* hostileServer(json(200, { code: 700001, msg: "API-key format invalid." }))
        const error = yield* failure(carrier, hostile)
        expect(error).toMatchObject({ _tag: "AuthenticationError", reason: "ApiKey", status: 200, code: 700001 })
        expect(error.message).toContain("check the API key, apiKey")
        expectSafeMessage(error)
        expect(hostile.served).toHaveLength(1)
      })),
    60_000
  )

  it.live(
    "a 302 is reported, not followed: its status and Location (no query, no control characters), once",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const elsewhere = yield* hostileServer(json(200, []))
        const hostile = yield* hostileServer(
          json(302, {}, { location: `${elsewhere.origin}/moved\u009b[2J?signature=0badc0de&x=1` })
        )
        const error = yield* failure(carrier, hostile)
        expect(error).toMatchObject({ _tag: "TransportError", reason: "Redirect", attempts: 1 })
        expect(error.message).toContain("302")
        expect(error.message).toContain(`${elsewhere.origin}/moved`)
        expect(error.message).toContain("check baseUrl")
        expect(error.message).not.toContain("0badc0de")
        expectSafeMessage(error)
        expect(hostile.served).toHaveLength(1)
        expect(elsewhere.served).toHaveLength(0)
      })),
    60_000
  )

  it.live(
    "escape sequences in a refusal's msg and in an HTML body never reach a message",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const msg = "\u001b]0;owned\u0007\u001b[2J\u001b[31mred\r\nsecond line\u009b1m\u007f"
        const hostile = yield* hostileServer(json(401, { code: 700002, msg }))
        const refused = yield* failure(carrier, hostile)
        expect(refused).toMatchObject({ _tag: "AuthenticationError", reason: "Signature" })
        expect(refused.message).toContain("red")
        expect(refused.message).toContain("second line")
        expectSafeMessage(refused)
        expect((refused as BrokerError.AuthenticationError).msg).not.toMatch(controls)
        hostile.script = text(503, `<html>\u001b[31mbusy\u001b[0m\r\n${"\u0007".repeat(100)}</html>`)
        const busy = yield* failure(carrier, hostile, { retry: { maxRetries: 0 } })
        expect(busy).toMatchObject({ _tag: "ServerError", status: 503 })
        expectSafeMessage(busy)
      })),
    60_000
  )

  it.live("a 5 MB msg is cut to a few hundred characters", () =>
    Effect.scoped(Effect.gen(function*() {
      const hostile = yield* hostileServer(json(400, { code: 33333, msg: "Param is error: " + "x".repeat(5_000_000) }))
      const error = yield* failure(carrier, hostile)
      expect(error).toMatchObject({ _tag: "ApiError", status: 400, code: 33333 })
      expect(error.message).toContain("Param is error: xxx")
      expect(error.message).toContain("…")
      expectSafeMessage(error)
    })), 60_000)

  it.live(
    "Retry-After: 100000 fails at once with RateLimited carrying the wait, naming retry.maxRetryAfter",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const hostile = yield* hostileServer(
          json(429, { code: 429, msg: "Too many requests." }, { "retry-after": "100000" })
        )
        const error = yield* failure(carrier, hostile)
        expect(error).toMatchObject({ _tag: "RateLimited", status: 429, retryAfterMillis: 100_000_000, attempts: 1 })
        expect(error.message).toContain("raise retry.maxRetryAfter")
        expect(error.message).toContain("1d 3h 46m 40s")
        expectSafeMessage(error)
        expect(hostile.served).toHaveLength(1)
      })),
    60_000
  )
})

describe("redirects over fetch", () => {
  it.live(
    "fetch's default mode follows a redirect, the key header with it: why the docs say redirect: manual",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const elsewhere = yield* hostileServer(json(200, []))
        const hostile = yield* hostileServer(json(307, {}, { location: `${elsewhere.origin}/moved` }))
        const page = yield* Effect.flatMap(BrokerHistory.BrokerHistory, (h) => h.transferHistory(query)).pipe(
          Effect.provide(
            BrokerHistory.layer.pipe(
              Layer.provide(BrokerConfig.layer(settings(hostile.origin, {}))),
              Layer.provide(FetchHttpClient.layer)
            )
          )
        )
        expect(page).toEqual([])
        expect(elsewhere.served).toHaveLength(1)
        expect(elsewhere.served[0]!.headers["x-mexc-apikey"]).toBe(apiKey)
      })),
    60_000
  )
})
