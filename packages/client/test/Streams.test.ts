import type { BrokerConfig } from "@broker-history/client"
import { BrokerHistory } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, HashMap, Logger, Metric, Stream, TestClock } from "effect"
import type { Row } from "./support/MockHistory.js"
import { expected, transferService } from "./support/MockHistory.js"
import { historyLayerSyncSigning as historyLayer, mockService } from "./support/MockService.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const fast = { rateLimit: { limit: 10_000, interval: "1 millis" } } as const

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const ids = (records: ReadonlyArray<{ tranId: string }>) => records.map((r) => r.tranId)

const withHistory = <A, E>(
  mock: ReturnType<typeof mockService>,
  f: (h: BrokerHistory.BrokerHistory["Type"]) => Effect.Effect<A, E>,
  overrides: Partial<BrokerConfig.Options> = {}
) => Effect.flatMap(BrokerHistory.BrokerHistory, f).pipe(Effect.provide(historyLayer(mock, { ...fast, ...overrides })))

// The streams on the clock (the server's now, a failing page, follow polls, a shared budget) and what
// they make of the service's answers are tested once for both lines in packages/behaviour/test/clock.
describe("full-history streams (mocked service)", () => {
  /** 12 transfers in millisecond 500 (and one before, one after), pages past 2 empty. */
  const crowdedService = () => {
    const rows: Array<Row> = [
      { tranId: "1", timestamp: 100, status: "SUCCESS" },
      ...Array.from({ length: 12 }, (_, i) => ({ tranId: String(100 + i), timestamp: 500, status: "SUCCESS" })),
      { tranId: "2", timestamp: 900, status: "SUCCESS" }
    ]
    const honest = transferService(rows)
    return mockService((seen) => Number(seen.params.get("page")) > 2 ? { status: 200, body: [] } : honest(seen))
  }

  it.effect("onIncomplete warn: a warning, the metric, the layer's count; the records received emitted, the stream goes on", () =>
    Effect.gen(function*() {
      const logs: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
      const logger = Logger.make(({ annotations, logLevel, message }) => {
        logs.push({ level: logLevel.label, message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
      })
      const counter = Metric.tagged(BrokerHistory.incompleteMilliseconds, "endpoint", "transferHistory")
      const before = (yield* Metric.value(counter)).count
      const [out, count] = yield* withHistory(
        crowdedService(),
        (h) =>
          Effect.zip(
            collect(h.transfers({ ...base, since: 0, until: 1000, limit: 5 })),
            h.incomplete
          ),
        { onIncomplete: "warn" }
      ).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      expect(ids(out)).toHaveLength(12)
      expect(ids(out)[0]).toBe("1")
      expect(ids(out)[11]).toBe("2")
      expect(count).toBe(1)
      expect((yield* Metric.value(counter)).count - before).toBe(1)
      const warnings = logs.filter((l) => l.level === "WARN")
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.annotations).toMatchObject({
        endpoint: "transferHistory",
        millisecond: "1970-01-01T00:00:00.500Z",
        received: 10,
        pages: 2,
        reason: "EmptyPage"
      })
    }))

  it.effect("is lazy: nothing is sent before it runs, and take(n) sends only what it needs", () =>
    Effect.gen(function*() {
      // An `until` in the past (by the local clock) needs no request for the server's time.
      yield* TestClock.setTime(200_000)
      const rows = Array.from(
        { length: 100 },
        (_, i) => ({ tranId: String(1000 + i), timestamp: i * 1000, status: "SUCCESS" })
      )
      const mock = mockService(transferService(rows))
      const taken = yield* withHistory(mock, (h) =>
        Effect.gen(function*() {
          const stream = h.transfers({ ...base, since: 0, until: 200_000, limit: 10 })
          expect(mock.seen.length).toBe(0)
          return yield* collect(Stream.take(stream, 3))
        }))
      expect(ids(taken)).toEqual(["1000", "1001", "1002"])
      // Shrinking from the whole range to a window that fits: a handful of requests, not the history.
      expect(mock.seen.length).toBeLessThanOrEqual(6)
      expect(mock.timeRequests.length).toBe(0)
    }))

  it.effect("checkpoints encode and decode: a change stream's checkpoint, stored as text, resumes it", () =>
    Effect.gen(function*() {
      const { Checkpoint } = yield* Effect.promise(() => import("@broker-history/client"))
      const cp = { time: 5, ids: ["a", "b"] }
      expect(Checkpoint.decode(Checkpoint.encode(cp))).toEqual(Either.right(cp))
      expect(Checkpoint.decode("{\"time\":-1}")).toMatchObject(Either.left({ _tag: "CheckpointError" }))
      // Ties at each millisecond, so that the checkpoint carries ids as well as a time.
      const rows = Array.from(
        { length: 30 },
        (_, i) => ({ tranId: String(10 + i), timestamp: (i >> 2) * 10, status: "SUCCESS" })
      )
      const mock = mockService(transferService(rows))
      const query = { ...base, since: 0, until: 1000, limit: 4 }
      const head = yield* withHistory(mock, (h) => collect(Stream.take(h.transferChanges(query), 10)))
      const last = head[head.length - 1]!.checkpoint
      expect(last.ids.length).toBeGreaterThan(0)
      const decoded = Checkpoint.decode(Checkpoint.encode(last))
      expect(decoded).toEqual(Either.right(last))
      const resume = Either.getOrThrow(decoded)
      const rest = yield* withHistory(mock, (h) => collect(h.transferChanges({ ...query, resume })))
      expect([...head, ...rest].map((c) => c.record.tranId)).toEqual(expected(rows, 0, 1000))
    }))
})
