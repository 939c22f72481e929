import type { BrokerConfig, BrokerError, Checkpoint } from "@broker-history/client"
import { BrokerHistory } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, HashMap, Logger, Metric, Stream, TestClock } from "effect"
import * as fc from "fast-check"
import type { Ordering, Row } from "./support/MockHistory.js"
import { expected, transferService } from "./support/MockHistory.js"
import { historyLayerSyncSigning as historyLayer, mockService, transferWire } from "./support/MockService.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const depositWire = {
  amount: "1.5",
  coin: "USDT",
  network: "TRC20",
  status: 5,
  address: "T1",
  addressTag: null,
  txId: "0xabc",
  unlockConfirm: 1,
  confirmTimes: 1,
  insertTime: 1_000,
  memo: null
}
const fast = { rateLimit: { limit: 10_000, interval: "1 millis" } } as const

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const ids = (records: ReadonlyArray<{ tranId: string }>) => records.map((r) => r.tranId)

const withHistory = <A, E>(
  mock: ReturnType<typeof mockService>,
  f: (h: BrokerHistory.BrokerHistory["Type"]) => Effect.Effect<A, E>,
  overrides: Partial<BrokerConfig.Options> = {}
) => Effect.flatMap(BrokerHistory.BrokerHistory, f).pipe(Effect.provide(historyLayer(mock, { ...fast, ...overrides })))

/**
 * Random histories: clustered times (ties, bursts), empty stretches. Each record's offset in its
 * cluster is drawn by fast-check (seeded by the run, shrinkable), folded into the cluster's spread.
 * With the rows comes the number of clusters (for the bound on requests).
 */
const historyArb = fc.array(
  fc.record({
    at: fc.integer({ min: 0, max: 100_000 }),
    spread: fc.integer({ min: 0, max: 50 }),
    offsets: fc.array(fc.nat({ max: 50 }), { minLength: 1, maxLength: 30 })
  }),
  { minLength: 0, maxLength: 8 }
).map((clusters) => {
  const rows: Array<Row> = []
  let id = 1000
  for (const c of clusters) {
    for (const offset of c.offsets) {
      rows.push({ tranId: String(id++), timestamp: c.at + offset % (c.spread + 1), status: "SUCCESS" })
    }
  }
  return { rows, clusters: clusters.length }
})

/**
 * The most requests a walk over a `historyArb` history may take: 1.15 × the pages its records need,
 * plus, per cluster (≤ 30 records within ≤ 51 ms), a binary search over the range to find where it
 * starts (⌈log2 range⌉ requests) and windows of fewer than `limit` records through it, each of which
 * may take one narrowing request (2 ⌈30 / (limit − 1)⌉); one more for the stretch after the last; and
 * with a maximum window, the ⌈range / maxWindow⌉ windows an empty range alone takes.
 */
const requestBound = (records: number, clusters: number, limit: number, range: number, maxWindow?: number) =>
  1.15 * Math.ceil(records / limit) +
  (clusters + 1) * (Math.ceil(Math.log2(range)) + 2 * Math.ceil(30 / Math.max(1, limit - 1))) +
  (maxWindow === undefined ? 0 : Math.ceil(range / maxWindow))

// The streams on the clock (the server's now, a failing page, follow polls, a shared budget) are tested
// once for both lines in packages/behaviour/test/clock.
describe("full-history streams (mocked service)", () => {
  it.effect.prop(
    "property: any history, limit, window and server order → the expected set, ascending, exactly once, in a bounded number of requests",
    {
      history: historyArb,
      limit: fc.integer({ min: 3, max: 30 }),
      maxWindow: fc.option(fc.integer({ min: 2_000, max: 40_000 }), { nil: undefined }),
      ordering: fc.constantFrom<Ordering>("newest-first", "oldest-first", "shuffled"),
      concurrency: fc.integer({ min: 1, max: 3 })
    },
    ({ concurrency, history: { clusters, rows }, limit, maxWindow, ordering }) =>
      Effect.gen(function*() {
        const mock = mockService(transferService(rows, { ordering }))
        const since = 0
        const until = 100_050
        // The service's now is after `until`, as for any range in the past.
        yield* TestClock.setTime(until)
        const out = yield* withHistory(
          mock,
          (h) => collect(h.transfers({ ...base, since, until, limit, concurrency })),
          maxWindow === undefined ? {} : { maxWindow: { transfers: maxWindow } }
        )
        expect(ids(out)).toEqual(expected(rows, since, until))
        const bound = requestBound(out.length, clusters, limit, until - since + 1, maxWindow)
        expect(mock.seen.length, `${mock.seen.length} requests for ${out.length} records`).toBeLessThanOrEqual(bound)
        if (maxWindow !== undefined) {
          for (const seen of mock.seen) {
            const width = Number(seen.params.get("endTime")) - Number(seen.params.get("startTime")) + 1
            expect(width).toBeLessThanOrEqual(maxWindow)
          }
        }
      }),
    { fastCheck: { numRuns: 40 } }
  )

  it.effect("an exact multiple of the limit, and more than a page in one millisecond", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = []
      for (let i = 0; i < 20; i++) rows.push({ tranId: String(100 + i), timestamp: 500, status: "SUCCESS" })
      for (let i = 0; i < 10; i++) rows.push({ tranId: String(200 + i), timestamp: 600 + i, status: "SUCCESS" })
      const mock = mockService(transferService(rows))
      const out = yield* withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 1000, limit: 5 })))
      expect(ids(out)).toEqual(expected(rows, 0, 1000))
      // Only the crowded millisecond is paged; no window is read past page 1 otherwise.
      const paged = mock.seen.filter((s) => s.params.get("page") !== "1")
      expect(paged.every((s) => s.params.get("startTime") === "500" && s.params.get("endTime") === "500")).toBe(true)
      expect(paged.length).toBeGreaterThan(0)
    }))

  it.effect("limit 1 still reads everything", () =>
    Effect.gen(function*() {
      const rows = Array.from(
        { length: 12 },
        (_, i) => ({ tranId: String(10 + i), timestamp: (i % 4) * 100, status: "SUCCESS" })
      )
      const mock = mockService(transferService(rows, { ordering: "shuffled" }))
      const out = yield* withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 1000, limit: 1 })))
      expect(ids(out)).toEqual(expected(rows, 0, 1000))
    }))

  it.effect("a record sent twice is emitted once", () =>
    Effect.gen(function*() {
      const rows = Array.from(
        { length: 30 },
        (_, i) => ({ tranId: String(10 + i), timestamp: i * 7, status: "SUCCESS" })
      )
      const mock = mockService(transferService(rows, { quirks: { repeat: true } }))
      const out = yield* withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 300, limit: 8 })))
      expect(ids(out)).toEqual(expected(rows, 0, 300))
    }))

  it.effect("a record outside the window is refused: OutsideQuery naming it and the request it came with", () =>
    Effect.gen(function*() {
      const rows = Array.from(
        { length: 30 },
        (_, i) => ({ tranId: String(10 + i), timestamp: i * 7, status: "SUCCESS" })
      )
      const mock = mockService(transferService(rows, { quirks: { outside: true } }))
      const error = yield* Effect.flip(
        withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 300, limit: 8 })))
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery", request: { page: 1 } })
      const { endTime, startTime } = (error as BrokerError.ResponseDecodeError).request
      expect(error.message).toContain(
        `record "999999" at ${new Date(endTime! + 1).toISOString()} is outside the query's window ${
          new Date(startTime!).toISOString()
        }..${new Date(endTime!).toISOString()}`
      )
      // The first short page (with its stray) ends the stream; the full pages before it were narrowed.
      const last = mock.seen[mock.seen.length - 1]!.params
      expect([startTime, endTime]).toEqual([Number(last.get("startTime")), Number(last.get("endTime"))])
    }))

  it.effect("records of another account than the query's are refused, in the streams and the page calls", () =>
    Effect.gen(function*() {
      // A service that answers every transfer query with transfers to "sub@x", whatever the query's accounts.
      const rows = [{ tranId: "1", timestamp: 100, status: "SUCCESS" }]
      const mock = mockService(transferService(rows, { quirks: { ignoresAccounts: true } }))
      const streamed = yield* Effect.flip(
        withHistory(mock, (h) => collect(h.transfers({ ...base, toAccount: "sub2@x", since: 0, until: 300 })))
      )
      expect(streamed).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery" })
      expect(streamed.message).toContain(`record "1" at 1970-01-01T00:00:00.100Z has toAccount "sub@x", not "sub2@x"`)
      const paged = yield* Effect.flip(
        withHistory(mock, (h) => h.transferHistory({ ...base, fromAccountType: "FUTURES", toAccountType: "SPOT" }))
      )
      expect(paged.message).toContain(`has fromAccountType "SPOT", not "FUTURES"`)
      // The query that matches is answered as it was.
      const matching = yield* withHistory(mock, (h) => h.transferHistory({ ...base, toAccount: "sub@x" }))
      expect(matching.map((t) => t.tranId)).toEqual(["1"])
    }))

  it.effect("an omitted account is the master account: one account across an answer", () =>
    Effect.gen(function*() {
      const wire = (tranId: string, toAccount: string) => ({ ...transferWire(tranId, 100), toAccount })
      const mock = mockService(() => ({ status: 200, body: [wire("1", "sub1@x"), wire("2", "sub2@x")] }))
      const error = yield* Effect.flip(withHistory(mock, (h) => h.transferHistory(base)))
      expect(error.message).toContain(
        `record "2" at 1970-01-01T00:00:00.100Z has toAccount "sub2@x" where record "1" at 1970-01-01T00:00:00.100Z ` +
          `of the same answer has "sub1@x": the query omitted toAccount, which means the master account, one account`
      )
    }))

  it.effect("page calls: a record outside the startTime/endTime asked for, or of another coin, is refused", () =>
    Effect.gen(function*() {
      const mock = mockService((seen) =>
        seen.path.endsWith("subHisrec")
          ? { status: 200, body: [{ ...depositWire, coin: "BTC" }] }
          : { status: 200, body: [transferWire("7", 2_000)] }
      )
      const outside = yield* Effect.flip(
        withHistory(mock, (h) => h.transferHistory({ ...base, startTime: 0, endTime: 1_999 }))
      )
      expect(outside).toMatchObject({
        _tag: "ResponseDecodeError",
        reason: "OutsideQuery",
        request: { endpoint: "transferHistory", startTime: 0, endTime: 1_999 }
      })
      expect(outside.message).toContain(`record "7" at 1970-01-01T00:00:02.000Z is outside the query's window`)
      // Without a window in the query, any time is the service's to choose.
      expect(yield* withHistory(mock, (h) => h.transferHistory(base))).toHaveLength(1)
      const coin = yield* Effect.flip(withHistory(mock, (h) => h.depositHistory({ coin: "USDT" })))
      expect(coin.message).toContain(`has coin "BTC", not "USDT"`)
    }))

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

  it.effect("a millisecond the service does not page through fails the stream: IncompleteHistory", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        withHistory(crowdedService(), (h) => collect(h.transfers({ ...base, since: 0, until: 1000, limit: 5 })))
      )
      expect(error).toMatchObject({
        _tag: "IncompleteHistory",
        time: 500,
        received: 10,
        pages: 2,
        reason: "EmptyPage",
        request: { endpoint: "transferHistory", startTime: 500, endTime: 500, page: 3 }
      })
    }))

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

  it.effect("resume: stopping anywhere and continuing from the checkpoint equals one run", () =>
    Effect.gen(function*() {
      const rows: Array<Row> = []
      let id = 1
      for (let t = 0; t < 60; t++) {
        for (let k = 0; k < (t % 4) + 1; k++) {
          rows.push({ tranId: String(id++), timestamp: t * 10, status: "SUCCESS" })
        }
      }
      const mock = mockService(transferService(rows, { ordering: "shuffled" }))
      const full = ids(
        yield* withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 1000, limit: 7 })))
      )
      for (const cut of [1, 2, 5, 13, 40, full.length - 1]) {
        const pieces: Array<string> = []
        let checkpoint: Checkpoint.Checkpoint | undefined
        for (let run = 0; run <= full.length && pieces.length < full.length; run++) {
          const changes = yield* withHistory(
            mock,
            (h) =>
              collect(
                Stream.take(h.transferChanges({ ...base, since: 0, until: 1000, limit: 7, resume: checkpoint }), cut)
              )
          )
          if (changes.length === 0) break
          pieces.push(...changes.map((c) => c.record.tranId))
          checkpoint = changes[changes.length - 1]!.checkpoint
        }
        expect(pieces).toEqual(full)
      }
    }))

  it.effect("resume without since continues from a checkpoint older than the default lookback", () =>
    Effect.gen(function*() {
      const year = 365 * 86_400_000
      yield* TestClock.setTime(2 * year + 1)
      const rows = [0, 1, 2].map((i) => ({ tranId: String(10 + i), timestamp: i * year, status: "SUCCESS" }))
      const mock = mockService(transferService(rows))
      const out = yield* withHistory(
        mock,
        (h) => collect(h.transfers({ ...base, until: 2 * year + 1, resume: { time: 0, ids: ["10"] } }))
      )
      expect(ids(out)).toEqual(["11", "12"])
    }))

  it.effect("live inserts while paging: nothing duplicated or displaced; records after until are not emitted", () =>
    Effect.gen(function*() {
      const rows = Array.from(
        { length: 200 },
        (_, i) => ({ tranId: String(10_000 + i), timestamp: i * 50, status: "SUCCESS" })
      )
      const original = expected(rows, 0, 10_000)
      let next = 50_000
      const mock = mockService(transferService(rows, {
        beforeAnswer: (seen) => {
          // Every request: one record inside the current window, one after `until`.
          const start = Number(seen.params.get("startTime"))
          rows.push({ tranId: String(next++), timestamp: start, status: "SUCCESS" })
          rows.push({ tranId: String(next++), timestamp: 20_000 + seen.n, status: "SUCCESS" })
        }
      }))
      const out = ids(
        yield* withHistory(mock, (h) => collect(h.transfers({ ...base, since: 0, until: 10_000, limit: 9 })))
      )
      expect(new Set(out).size).toBe(out.length)
      for (const id of original) expect(out).toContain(id)
      expect(out.every((id) => rows.find((r) => r.tranId === id)!.timestamp <= 10_000)).toBe(true)
    }))

  it.effect.each([
    [{ ...base, limit: 501 }, "limit"],
    [{ ...base, concurrency: 0 }, "concurrency"],
    [{ ...base, since: 10, until: 5 }, "since"],
    [{ ...base, since: "not a date" }, "since"],
    [{ ...base, resume: { time: -1, ids: [] } }, "resume"],
    [{ ...base, follow: { interval: "30 seconds" } }, "follow"],
    [{ ...base, clientTranId: "x" }, "clientTranId"],
    [{ ...base, pageSize: 3 }, "pageSize"]
  ])("rejects %j with InvalidQuery(%s) before any request", ([query, parameter]) =>
    Effect.gen(function*() {
      const mock = mockService(transferService([]))
      const error = yield* Effect.flip(withHistory(mock, (h) => collect(h.transfers(query as any))))
      expect(error).toMatchObject({ _tag: "InvalidQuery", parameter })
      expect(mock.seen.length + mock.timeRequests.length).toBe(0)
    }))

  it.effect("the change stream rejects a follow interval that is not positive, before any request", () =>
    Effect.gen(function*() {
      const mock = mockService(transferService([]))
      const error = yield* Effect.flip(
        withHistory(mock, (h) => collect(h.transferChanges({ ...base, follow: { interval: "0 millis" } })))
      )
      expect(error).toMatchObject({ _tag: "InvalidQuery", parameter: "follow.interval" })
      expect(mock.seen.length + mock.timeRequests.length).toBe(0)
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
