// The client against services on 127.0.0.1 that ignore what it asks: one that ignores startTime/endTime
// (the walk must fail at once with OutsideQuery, not page the whole history for every millisecond),
// and one that stops paging a crowded millisecond (IncompleteHistory, or with onIncomplete "warn": the
// records it served, a warning, the metric and the layer's count).
import type { BrokerError } from "@broker-history/client"
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { misbehavingServer, pageOf, transfer } from "@broker-history/testing/Misbehaving"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, HashMap, Layer, Logger, Metric, Redacted, Stream } from "effect"

const day = 86_400_000
const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" } as const

/** The client over undici for `origin`, its budget never binding. */
const client = (origin: string, options: Partial<BrokerConfig.Options> = {}) =>
  BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl: origin,
    apiKey: Redacted.make("misbehaving-test-key"),
    secretKey: Redacted.make("misbehaving-test-secret"),
    rateLimit: { limit: 10_000, interval: "1 second" },
    ...options
  })))

const withClient = <A, E>(
  origin: string,
  f: (history: BrokerHistory.BrokerHistory["Type"]) => Effect.Effect<A, E>,
  options: Partial<BrokerConfig.Options> = {}
) => Effect.flatMap(BrokerHistory.BrokerHistory, f).pipe(Effect.provide(client(origin, options)))

describe("a service that ignores the query", () => {
  it.scoped("ignores startTime/endTime: the stream fails with OutsideQuery after a page or two, no loop", () =>
    Effect.gen(function*() {
      const now = Date.now()
      // 5,000 transfers over two years, newest first, paged whatever the window asked for.
      const rows = Array.from({ length: 5_000 }, (_, i) => transfer(5_000 - i, now - 1_000 - i * 12_600_000))
      const service = yield* misbehavingServer((params) => pageOf(rows, params))
      const error = yield* Effect.flip(
        withClient(
          service.origin,
          (history) => Stream.runDrain(history.transfers({ ...query, since: now - 800 * day, until: now }))
        )
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery" })
      expect(error.message).toContain("is outside the query's window")
      // The first window is the whole range (its page is the newest 500 records, all inside it); the
      // narrowed one gets the same page, partly outside it.
      expect(service.requests()).toBeLessThanOrEqual(3)

      // A page call with a window is checked the same way.
      const page = yield* Effect.flip(withClient(
        service.origin,
        (history) => history.transferHistory({ ...query, startTime: now - day, endTime: now })
      ))
      expect(page).toMatchObject({
        _tag: "ResponseDecodeError",
        reason: "OutsideQuery",
        request: { endpoint: "transferHistory", startTime: now - day, endTime: now }
      })
    }))
})

describe("a service that stops paging a crowded millisecond", () => {
  const T = Date.UTC(2026, 0, 1, 12)
  // 1,200 transfers in millisecond T, one before and one after it; pages past 2 come back empty.
  const rows = [
    transfer(1, T + 60_000),
    ...Array.from({ length: 1_200 }, (_, i) => transfer(10_000 - i, T)),
    transfer(2, T - 60_000)
  ]
  const capped = (params: URLSearchParams) => {
    const start = Number(params.get("startTime"))
    const end = Number(params.get("endTime"))
    if (Number(params.get("page") ?? 1) > 2) return []
    return pageOf(rows.filter((r) => r.timestamp >= start && r.timestamp <= end), params)
  }
  const range = { ...query, since: T - day, until: T + day }

  it.scoped("fails with IncompleteHistory naming the millisecond, the records received and the pages", () =>
    Effect.gen(function*() {
      const service = yield* misbehavingServer(capped)
      const error = yield* Effect.flip(
        withClient(service.origin, (history) => Stream.runDrain(history.transfers(range)))
      )
      expect(error).toMatchObject({
        _tag: "IncompleteHistory",
        time: T,
        received: 1_000,
        pages: 2,
        reason: "EmptyPage",
        request: { endpoint: "transferHistory", startTime: T, endTime: T, page: 3 }
      })
      expect((error as BrokerError.IncompleteHistory).message).toContain(
        "1000 records in 2 pages, then page 3 came back empty"
      )
    }))

  it.scoped("with onIncomplete warn: the 1,000 records served, a warning, the metric, the layer's count", () =>
    Effect.gen(function*() {
      const service = yield* misbehavingServer(capped)
      const warnings: Array<Record<string, unknown>> = []
      const logger = Logger.make(({ annotations, logLevel, message }) => {
        if (logLevel.label === "WARN") warnings.push({ message, ...Object.fromEntries(HashMap.toEntries(annotations)) })
      })
      const counter = Metric.tagged(BrokerHistory.incompleteMilliseconds, "endpoint", "transferHistory")
      const before = (yield* Metric.value(counter)).count
      const [records, incomplete] = yield* withClient(
        service.origin,
        (history) => Effect.zip(Stream.runCollect(history.transfers(range)), history.incomplete),
        { onIncomplete: "warn" }
      ).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      const ids = Chunk.toReadonlyArray(records).map((r) => r.tranId)
      expect(ids).toHaveLength(1_002)
      expect(new Set(ids).size).toBe(1_002)
      expect([ids[0], ids[1_001]]).toEqual(["2", "1"])
      expect(incomplete).toBe(1)
      expect((yield* Metric.value(counter)).count - before).toBe(1)
      expect(warnings).toEqual([expect.objectContaining({
        endpoint: "transferHistory",
        millisecond: new Date(T).toISOString(),
        received: 1_000,
        pages: 2,
        reason: "EmptyPage"
      })])
    }))
})
