// Follow streams and a Retry-After beyond retry.maxRetryAfter, over this line's request pipeline
// stubbed. How follow streams ride out an outage over the mock transport is tested once for both
// lines in packages/behaviour/test/clock.
import { BrokerConfig, BrokerError, BrokerHistory, BrokerHttpClient, ServerClock } from "@broker-history/client-effect4"
import { Clock, Effect, Fiber, Layer, Schema, Stream } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Line } from "./support/Logged.js"
import { logged } from "./support/Logged.js"
import type { Row } from "./support/MockHistory.js"
import { transferService } from "./support/MockHistory.js"
import type { Answer, Seen } from "./support/MockService.js"
import { testOptions } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const T0 = 1_000_000
const minute = 60_000

const unavailable = (lines: ReadonlyArray<Line>) =>
  lines.filter((l) => l.message.startsWith("broker service unavailable"))
const availableAgain = (lines: ReadonlyArray<Line>) =>
  lines.filter((l) => l.message.startsWith("broker service available again"))

const options: Partial<BrokerConfig.Options> = { rateLimit: { limit: 1000, interval: "1 second" } }

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
})
