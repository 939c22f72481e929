// Follow streams ride out transient failures: an outage longer than any request's retries, then
// recovery, on a virtual clock. Every record inserted meanwhile comes once, and the outage is logged
// once when it starts and once when it ends, per layer.
import { BrokerConfig, BrokerError, BrokerHistory, BrokerHttpClient, ServerClock } from "@broker-history/client-effect4"
import { Prng } from "@broker-history/testing/ServerInternals"
import { Clock, Duration, Effect, Fiber, Layer, Logger, References, Schema, Stream } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Row } from "./support/MockHistory.js"
import { transferService } from "./support/MockHistory.js"
import type { Answer, Seen } from "./support/MockService.js"
import {
  apiKey,
  historyLayerSyncSigning as historyLayer,
  mockService,
  secretKey,
  testOptions
} from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const T0 = 1_000_000
const minute = 60_000

interface Line {
  readonly level: string
  readonly message: string
  readonly annotations: Record<string, unknown>
}

/** Every log line, debug included, kept as level, message and annotations. */
const logged = (lines: Array<Line>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Logger.layer([
      Logger.make(({ fiber, logLevel, message }) => {
        lines.push({
          level: logLevel.toUpperCase(),
          message: Array.isArray(message) ? message.join(" ") : String(message),
          annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
        })
      })
    ])),
    Effect.provideService(References.MinimumLogLevel, "Debug")
  )

const unavailable = (lines: ReadonlyArray<Line>) =>
  lines.filter((l) => l.message.startsWith("broker service unavailable"))
const availableAgain = (lines: ReadonlyArray<Line>) =>
  lines.filter((l) => l.message.startsWith("broker service available again"))

/** Down in [from, to): 503 for the first half, connection refused for the second. */
const outage = (from: number, to: number, answer: (seen: Seen) => Answer) => (seen: Seen): Answer =>
  seen.at < from || seen.at >= to
    ? answer(seen)
    : seen.at < (from + to) / 2
    ? { status: 503, body: { code: 503, msg: "Service unavailable" } }
    : { transport: "connect ECONNREFUSED 127.0.0.1:8080" }

const ordered = (rows: ReadonlyArray<Row>) =>
  [...rows].sort((a, b) => a.timestamp - b.timestamp || Number(a.tranId) - Number(b.tranId)).map((r) => r.tranId)

const options: Partial<BrokerConfig.Options> = { rateLimit: { limit: 1000, interval: "1 second" } }

describe("follow streams ride out transient failures", () => {
  it.effect("transferChanges with follow: alive through 10 minutes of 503 and refused connections, every record once", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
      const down = { from: T0 + 30_000, to: T0 + 30_000 + 10 * minute }
      const mock = mockService(outage(down.from, down.to, transferService(rows)))
      const lines: Array<Line> = []
      const seen: Array<string> = []
      const availability: Array<BrokerHistory.Availability> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Effect.andThen(
            Effect.forkScoped(
              Effect.forever(Effect.andThen(
                Effect.flatMap(h.availability, (a) => Effect.sync(() => availability.push(a))),
                Effect.sleep("10 seconds")
              ))
            ),
            h.transferChanges({ ...base, since: 0, follow: { interval: "10 seconds", settlement: "1 minute" } }).pipe(
              Stream.runForEach((c) => Effect.sync(() => seen.push(`${c.kind}:${c.record.tranId}`)))
            )
          )
        ),
        Effect.scoped,
        Effect.provide(historyLayer(mock, options)),
        logged(lines),
        Effect.forkChild
      )
      let id = 2
      for (let s = 5; s <= 15 * 60; s += 5) {
        // A record every 5 s, before, during and after the outage.
        rows.push({ tranId: String(id++), timestamp: T0 + s * 1_000 - 1, status: "SUCCESS" })
        yield* VirtualClock.adjust("5 seconds")
      }
      expect(fiber.pollUnsafe()).toBeUndefined()
      // Every record up to a poll's reach (the last minute is sure to be read) came once, in order, as new.
      const reached = rows.filter((r) => r.timestamp <= T0 + 14 * minute)
      expect(seen.slice(0, reached.length)).toEqual(ordered(reached).map((id) => `new:${id}`))
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen.every((s) => s.startsWith("new:"))).toBe(true)
      // The outage: one warning at its start, one line at its end, debug lines between.
      const [start] = unavailable(lines)
      const [end] = availableAgain(lines)
      expect(unavailable(lines)).toHaveLength(1)
      expect(availableAgain(lines)).toHaveLength(1)
      expect(start).toMatchObject({ level: "WARN", annotations: { error: "ServerError" } })
      expect(start!.message).toContain("failed with a server error (503")
      expect(start!.annotations.retryMillis).toBeGreaterThanOrEqual(50)
      expect(start!.annotations.retryMillis).toBeLessThanOrEqual(100)
      expect(end!.level).toBe("INFO")
      const since = Date.parse(start!.annotations.since as string)
      expect(since).toBeGreaterThanOrEqual(down.from)
      expect(since).toBeLessThan(down.from + 5_000)
      // It ends at the first request after the service is back: within one capped retry interval (1 minute).
      const length = end!.annotations.outageMillis as number
      expect(since + length).toBeGreaterThanOrEqual(down.to)
      expect(since + length).toBeLessThanOrEqual(down.to + minute)
      expect(end!.message).toContain(`after ${Duration.format(Duration.millis(length))}`)
      expect(lines.filter((l) => l.level === "DEBUG" && l.message.includes("failed again")).length)
        .toBeGreaterThan(5)
      // No line holds a secret.
      const text = JSON.stringify(lines)
      expect(text).not.toContain(apiKey)
      expect(text).not.toContain(secretKey)
      expect(text).not.toContain("signature=")
      // What a supervisor saw meanwhile.
      const during = availability.filter((a) => a.unavailableSince !== undefined)
      expect(during.length).toBeGreaterThan(50)
      expect(during.every((a) => a.unavailableSince === since && a.lastSuccess! < down.from)).toBe(true)
      expect(during[0]!.lastFailure).toContain("503")
      expect(availability.at(-1)).toMatchObject({ unavailableSince: undefined, lastFailure: undefined })
      expect(availability.at(-1)!.lastSuccess).toBeGreaterThan(down.to)
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("followTransfers: six streams through 10 minutes of outage, every record of every stream once, two log lines", () =>
    Effect.gen(function*() {
      const names = ["a", "b", "c", "d", "e", "f"]
      const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
      const services = Object.fromEntries(names.map((n) => [n, transferService(rows[n]!)]))
      const down = { from: T0 + 30_000, to: T0 + 30_000 + 10 * minute }
      const mock = mockService(outage(down.from, down.to, (seen) => services[seen.params.get("toAccount")!]!(seen)))
      const lines: Array<Line> = []
      const seen: Array<{ stream: string; kind: string; tranId: string }> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.followTransfers(
            names.map((name) => ({ stream: name, query: { ...base, toAccount: name, since: 0 } })),
            { minInterval: "5 seconds", maxInterval: "30 seconds", settlement: "1 minute", concurrency: 4 }
          ).pipe(
            Stream.runForEach((c) =>
              Effect.sync(() => seen.push({ stream: c.stream, kind: c.kind, tranId: c.record.tranId }))
            )
          )
        ),
        Effect.provide(historyLayer(mock, options)),
        logged(lines),
        Effect.forkChild
      )
      const next = Prng.mulberry32(21)
      let id = 1
      for (let s = 5; s <= 15 * 60; s += 5) {
        rows[names[Prng.int(next, 0, names.length - 1)]!]!.push({
          tranId: String(id++),
          timestamp: T0 + s * 1_000 - 1,
          status: "SUCCESS"
        })
        yield* VirtualClock.adjust("5 seconds")
      }
      expect(fiber.pollUnsafe()).toBeUndefined()
      for (const name of names) {
        const mine = seen.filter((c) => c.stream === name)
        const reached = rows[name]!.filter((r) => r.timestamp <= T0 + 14 * minute)
        expect(mine.slice(0, reached.length).map((c) => c.tranId)).toEqual(ordered(reached))
        expect(new Set(mine.map((c) => c.tranId)).size).toBe(mine.length)
        expect(mine.every((c) => c.kind === "new")).toBe(true)
      }
      expect(unavailable(lines)).toHaveLength(1)
      expect(availableAgain(lines)).toHaveLength(1)
      const since = Date.parse(unavailable(lines)[0]!.annotations.since as string)
      const ended = since + (availableAgain(lines)[0]!.annotations.outageMillis as number)
      expect(ended).toBeGreaterThanOrEqual(down.to)
      expect(ended).toBeLessThanOrEqual(down.to + minute)
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("a follow stream started while the service is down (server time and pages refused) catches up when it is back", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = [
        { tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" },
        { tranId: "2", timestamp: T0 + 60_000, status: "SUCCESS" }
      ]
      const upAt = T0 + 5 * minute
      const mock = mockService(outage(T0, upAt, transferService(rows)))
      // The server-time endpoint is down as long as the pages are.
      const timeDown = Layer.effect(
        HttpClient.HttpClient,
        Effect.map(
          HttpClient.HttpClient,
          (client) =>
            HttpClient.transform(
              client,
              (answer, request) =>
                Effect.flatMap(Clock.currentTimeMillis, (now) =>
                  request.url.endsWith("/api/v3/time") && now < upAt
                    ? Effect.fail(
                      new HttpClientError.HttpClientError({
                        reason: new HttpClientError.TransportError({ request, cause: new Error("ECONNREFUSED") })
                      })
                    )
                    : answer)
            )
        )
      ).pipe(Layer.provide(mock.client))
      const lines: Array<Line> = []
      const seen: Array<string> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.transferChanges({ ...base, since: 0, follow: { interval: "10 seconds" } }).pipe(
            Stream.runForEach((c) => Effect.sync(() => seen.push(c.record.tranId)))
          )
        ),
        Effect.provide(historyLayer({ client: timeDown }, options)),
        logged(lines),
        Effect.forkChild
      )
      yield* VirtualClock.adjust("7 minutes")
      expect(fiber.pollUnsafe()).toBeUndefined()
      expect(seen).toEqual(["1", "2"])
      expect(mock.timeRequests.length).toBeGreaterThan(0)
      expect(unavailable(lines)).toHaveLength(1)
      expect(unavailable(lines)[0]!.annotations.error).toBe("TransportError")
      expect(availableAgain(lines)).toHaveLength(1)
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("a permanent failure (700001) mid-follow still ends the stream, during an outage too", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
      const revokedAt = T0 + 4 * minute
      // Down from 30 s, then the key is revoked at 4 minutes.
      const mock = mockService(
        outage(T0 + 30_000, revokedAt, (seen) =>
          seen.at >= revokedAt
            ? { status: 401, body: { code: 700001, msg: "Api key info invalid" } }
            : transferService(rows)(seen))
      )
      const lines: Array<Line> = []
      const changes = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(h.transferChanges({ ...base, since: 0, follow: { interval: "10 seconds" } }))
        ),
        Effect.flip,
        Effect.provide(historyLayer(mock, options)),
        logged(lines),
        Effect.forkChild
      )
      const many = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(
            h.followTransfers([{ stream: "one", query: { ...base, since: 0 } }, {
              stream: "two",
              query: { ...base, toAccount: "sub2@x", since: 0 }
            }])
          )
        ),
        Effect.flip,
        Effect.provide(historyLayer(mock, options)),
        Effect.forkChild
      )
      // Within one capped retry interval (1 minute) of the revocation, both have ended.
      yield* VirtualClock.adjust("305 seconds")
      expect(yield* Fiber.join(changes)).toMatchObject({ _tag: "AuthenticationError", code: 700001 })
      expect(yield* Fiber.join(many)).toMatchObject({ _tag: "AuthenticationError", code: 700001 })
      expect(unavailable(lines)).toHaveLength(1)
      expect(availableAgain(lines)).toHaveLength(0)
    }).pipe(VirtualClock.run({ start: T0 })))
})

/**
 * `BrokerHistory.make` over a request pipeline that answers with `serve` except where `refuse` gives an
 * error (a `RateLimited` as the pipeline fails at once on a `Retry-After` beyond `retry.maxRetryAfter`).
 */
const refusingLayer = (
  serve: (seen: Seen) => Answer,
  refuse: (seen: Seen) => BrokerError.BrokerError | undefined,
  requests: Array<number>
) =>
  Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
    Layer.provide(Layer.effect(
      BrokerHttpClient.BrokerHttpClient,
      Effect.map(Effect.service(BrokerConfig.BrokerConfig), () => ({
        get: (_endpoint, params, schema) =>
          Effect.flatMap(Clock.currentTimeMillis, (at) => {
            requests.push(at)
            const seen: Seen = {
              n: requests.length,
              at,
              path: "",
              query: "",
              params: new URLSearchParams(params.map(([k, v]): [string, string] => [k, v])),
              headers: {}
            }
            const refusal = refuse(seen)
            if (refusal !== undefined) return Effect.fail(refusal)
            const answer = serve(seen) as { readonly body: unknown }
            return Effect.orDie(Schema.decodeUnknownEffect(schema)(answer.body))
          })
      }))
    )),
    Layer.provide(Layer.mergeAll(ServerClock.layerFixed(0), BrokerConfig.layer(testOptions(options))))
  )

const longRetryAfter = new BrokerError.RateLimited({
  request: { endpoint: "transferHistory" },
  status: 429,
  code: 429,
  msg: "Too many requests.",
  retryAfterMillis: 5 * minute,
  attempts: 1
})

describe("a Retry-After beyond retry.maxRetryAfter", () => {
  it.effect("a follow stream waits it out (not the backoff) and logs the wait and its end", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
      const refusedAt = T0 + 30_000
      const requests: Array<number> = []
      const lines: Array<Line> = []
      const seen: Array<string> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.transferChanges({ ...base, since: 0, follow: { interval: "10 seconds" } }).pipe(
            Stream.runForEach((c) => Effect.sync(() => seen.push(c.record.tranId)))
          )
        ),
        Effect.provide(
          refusingLayer(transferService(rows), (seen) => seen.at === refusedAt ? longRetryAfter : undefined, requests)
        ),
        logged(lines),
        Effect.forkChild
      )
      rows.push({ tranId: "2", timestamp: T0 + 60_000, status: "SUCCESS" })
      yield* VirtualClock.adjust("8 minutes")
      expect(fiber.pollUnsafe()).toBeUndefined()
      expect(seen).toEqual(["1", "2"])
      // The request after the refusal came exactly when the service asked.
      expect(requests).toContain(refusedAt)
      expect(requests.filter((t) => t > refusedAt)[0]).toBe(refusedAt + 5 * minute)
      const [start] = unavailable(lines)
      expect(unavailable(lines)).toHaveLength(1)
      expect(start).toMatchObject({
        level: "WARN",
        annotations: {
          error: "RateLimited",
          retryMillis: 5 * minute,
          resumesAt: new Date(refusedAt + 5 * minute).toISOString()
        }
      })
      expect(start!.message).toContain("Retry-After of 5m")
      expect(availableAgain(lines)).toHaveLength(1)
      expect(availableAgain(lines)[0]!.annotations.outageMillis).toBe(5 * minute)
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("without follow, the stream and a page call fail at once", () =>
    Effect.gen(function*() {
      const requests: Array<number> = []
      const layer = refusingLayer(transferService([]), () => longRetryAfter, requests)
      const error = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Effect.all([
            Effect.flip(Stream.runDrain(h.transferChanges({ ...base, since: 0 }))),
            Effect.flip(h.transferHistory(base))
          ])
        ),
        Effect.provide(layer)
      )
      expect(error).toMatchObject([{ _tag: "RateLimited" }, { _tag: "RateLimited" }])
      expect(requests).toEqual([T0, T0])
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("many streams refused at once during an outage: one line for the outage, one for the wait, one for the end", () =>
    Effect.gen(function*() {
      const names = ["a", "b", "c", "d"]
      const rows: Record<string, Array<Row>> = Object.fromEntries(
        names.map((n) => [n, [{ tranId: `${n}1`, timestamp: T0 - 5_000, status: "SUCCESS" }]])
      )
      const services = Object.fromEntries(names.map((n) => [n, transferService(rows[n]!)]))
      const failing = new BrokerError.ServerError({
        request: { endpoint: "transferHistory" },
        status: 503,
        attempts: 4
      })
      // 503 from 30 s to 90 s, then a 5-minute Retry-After for every request until 3 minutes.
      const byStream: Array<{ readonly stream: string; readonly at: number }> = []
      const refuse = (seen: Seen) => {
        byStream.push({ stream: seen.params.get("toAccount")!, at: seen.at })
        return seen.at >= T0 + 30_000 && seen.at < T0 + 90_000
          ? failing
          : seen.at >= T0 + 90_000 && seen.at < T0 + 3 * minute
          ? longRetryAfter
          : undefined
      }
      const requests: Array<number> = []
      const lines: Array<Line> = []
      const seen: Array<string> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.followTransfers(
            names.map((name) => ({ stream: name, query: { ...base, toAccount: name, since: 0 } })),
            { minInterval: "5 seconds", maxInterval: "10 seconds", settlement: "1 minute" }
          ).pipe(Stream.runForEach((c) => Effect.sync(() => seen.push(c.record.tranId))))
        ),
        Effect.provide(
          refusingLayer((seen) => services[seen.params.get("toAccount")!]!(seen), refuse, requests)
        ),
        logged(lines),
        Effect.forkChild
      )
      for (const name of names) rows[name]!.push({ tranId: `${name}2`, timestamp: T0 + 2 * minute, status: "SUCCESS" })
      yield* VirtualClock.adjust("10 minutes")
      expect(fiber.pollUnsafe()).toBeUndefined()
      expect([...seen].sort()).toEqual(names.flatMap((n) => [`${n}1`, `${n}2`]))
      expect(unavailable(lines)).toHaveLength(1)
      expect(unavailable(lines)[0]!.annotations.error).toBe("ServerError")
      const waits = lines.filter((l) => l.message.startsWith("broker service asks to wait"))
      expect(waits).toHaveLength(1)
      expect(waits[0]).toMatchObject({ level: "WARN", annotations: { error: "RateLimited", retryMillis: 5 * minute } })
      expect(availableAgain(lines)).toHaveLength(1)
      // Several streams were refused, and each asked again exactly 5 minutes later.
      const refused = byStream.filter(({ at }) => at >= T0 + 90_000 && at < T0 + 3 * minute)
      expect(new Set(refused.map((r) => r.stream)).size).toBeGreaterThan(1)
      for (const { at, stream } of refused) {
        expect(byStream.find((r) => r.stream === stream && r.at > at)?.at).toBe(at + 5 * minute)
      }
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: T0 })))

  it.effect("over HTTP: a 429 asking for 5 minutes fails a page call at once, and a follow stream waits it out", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
      const refusedFrom = T0 + 30_000
      let refusals = 0
      const mock = mockService((seen) => {
        if (seen.at >= refusedFrom && refusals === 0) {
          refusals++
          return { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "300" } }
        }
        return transferService(rows)(seen)
      })
      const lines: Array<Line> = []
      const seen: Array<string> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.transferChanges({ ...base, since: 0, follow: { interval: "10 seconds" } }).pipe(
            Stream.runForEach((c) => Effect.sync(() => seen.push(c.record.tranId)))
          )
        ),
        Effect.provide(historyLayer(mock, options)),
        logged(lines),
        Effect.forkChild
      )
      rows.push({ tranId: "2", timestamp: T0 + 60_000, status: "SUCCESS" })
      yield* VirtualClock.adjust("8 minutes")
      expect(fiber.pollUnsafe()).toBeUndefined()
      expect(seen).toEqual(["1", "2"])
      const refusedAt = mock.seen.find((s) => s.at >= refusedFrom)!.at
      // Refused once: the next request exactly when the service asked, not after the backoff.
      expect(mock.seen.filter((s) => s.at > refusedAt)[0]!.at).toBe(refusedAt + 5 * minute)
      expect(unavailable(lines)).toHaveLength(1)
      expect(unavailable(lines)[0]!.annotations).toMatchObject({ error: "RateLimited", retryMillis: 5 * minute })
      expect(availableAgain(lines)).toHaveLength(1)
      yield* Fiber.interrupt(fiber)

      // A page call meets the same refusal: it fails at once, after one attempt.
      const once = mockService(() => ({
        status: 429,
        body: { code: 429, msg: "Too many requests." },
        headers: { "retry-after": "300" }
      }))
      const error = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) => Effect.flip(h.transferHistory(base))),
        Effect.provide(historyLayer(once, options))
      )
      expect(error).toMatchObject({ _tag: "RateLimited", retryAfterMillis: 5 * minute, attempts: 1 })
      expect(once.seen).toHaveLength(1)
    }).pipe(VirtualClock.run({ start: T0 })))
})
