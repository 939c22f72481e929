import type { FollowScheduler } from "@broker-history/client-effect4"
import { BrokerHistory } from "@broker-history/client-effect4"
import { Prng } from "@broker-history/testing/ServerInternals"
import { Effect, Fiber, Layer, Stream } from "effect"
import { HttpClient } from "effect/http"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Row } from "./support/MockHistory.js"
import { transferService } from "./support/MockHistory.js"
import type { Seen } from "./support/MockService.js"
import { historyLayerSyncSigning as historyLayer, mockService } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

/** Streams named by their `toAccount`; each has its own rows, served by the mock history. */
const multiService = (rows: Record<string, Array<Row>>) => {
  const services = Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, transferService(r)]))
  return (seen: Seen) => services[seen.params.get("toAccount") ?? ""]!(seen)
}

const queryOf = (name: string) => ({
  stream: name,
  query: { fromAccountType: "SPOT" as const, toAccountType: "FUTURES" as const, toAccount: name, since: 0 }
})

const requestTimes = (mock: ReturnType<typeof mockService>, name: string) =>
  mock.seen.filter((s) => s.params.get("toAccount") === name).map((s) => s.at)

describe("FollowScheduler", () => {
  it.effect("many streams merged: per stream in order, exactly once, with each stream's checkpoint", () =>
    Effect.gen(function*() {
      const names = ["a", "b", "c", "d"]
      const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
      const next = Prng.mulberry32(7)
      let id = 1
      const insert = (at: number) => {
        const name = names[Prng.int(next, 0, 3)]!
        rows[name]!.push({ tranId: String(id++), timestamp: at, status: "SUCCESS" })
      }
      for (let i = 0; i < 40; i++) insert(Prng.int(next, 0, 999_000))
      const mock = mockService(multiService(rows))
      const seen: Array<FollowScheduler.Change<string, { tranId: string; timestamp: number }>> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          h.followTransfers(names.map(queryOf), {
            minInterval: "1 second",
            maxInterval: "20 seconds",
            settlement: "1 minute"
          })
            .pipe(Stream.runForEach((c) => Effect.sync(() => seen.push(c))))
        ),
        Effect.provide(historyLayer(mock, { rateLimit: { limit: 5, interval: "1 second" } })),
        Effect.forkChild
      )
      // Live inserts at the service's now, some at the same millisecond, while the streams follow.
      for (let s = 0; s < 120; s++) {
        const now = 1_000_000 + s * 1_000
        if (s < 90 && next() < 0.5) insert(now)
        if (s < 90 && next() < 0.1) insert(now)
        yield* VirtualClock.adjust("1 second")
      }
      for (const name of names) {
        const mine = seen.filter((c) => c.stream === name)
        const want = [...rows[name]!].sort((x, y) => x.timestamp - y.timestamp || Number(x.tranId) - Number(y.tranId))
        expect(mine.map((c) => c.record.tranId)).toEqual(want.map((r) => r.tranId))
        expect(mine.every((c) => c.kind === "new")).toBe(true)
        const last = mine.at(-1)!
        expect(last.checkpoint.time).toBe(last.record.timestamp)
        expect(last.checkpoint.ids).toContain(last.record.tranId)
      }
      yield* Fiber.interrupt(fiber)
    }).pipe(VirtualClock.run({ start: 1_000_000 })))

  it.effect("a busy stream is polled more often than quiet ones, and no stream waits longer than maxInterval", () =>
    Effect.gen(function*() {
      const names = ["busy", "q1", "q2", "q3", "q4", "q5"]
      const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
      const mock = mockService(multiService(rows))
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(h.followTransfers(names.map(queryOf), { minInterval: "1 second", maxInterval: "30 seconds" }))
        ),
        Effect.provide(historyLayer(mock)),
        Effect.forkChild
      )
      let id = 1
      for (let s = 0; s < 300; s++) {
        rows.busy!.push({ tranId: String(id++), timestamp: 1_000_000 + s * 1_000, status: "SUCCESS" })
        yield* VirtualClock.adjust("1 second")
      }
      yield* Fiber.interrupt(fiber)
      const busy = requestTimes(mock, "busy")
      for (const name of names.slice(1)) {
        const quiet = requestTimes(mock, name)
        expect(busy.length).toBeGreaterThan(5 * quiet.length)
        const gaps = quiet.slice(1).map((t, i) => t - quiet[i]!)
        expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000)
        // Backed off: after the first poll found nothing, every poll is maxInterval apart.
        expect(Math.min(...gaps)).toBe(30_000)
      }
    }).pipe(VirtualClock.run({ start: 1_000_000 })))

  it.effect("polls beyond the budget wait their turn, at most `concurrency` in flight", () =>
    Effect.gen(function*() {
      const names = Array.from({ length: 12 }, (_, i) => `s${i}`)
      const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
      const inner = multiService(rows)
      let inFlight = 0
      let most = 0
      // Each answer takes 500 ms of the clock, so polls overlap as far as the scheduler lets them.
      const mock = mockService(inner)
      const slow = Layer.effect(
        HttpClient.HttpClient,
        Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
          HttpClient.transform(client, (answer) =>
            Effect.acquireUseRelease(
              Effect.sync(() => {
                inFlight++
                most = Math.max(most, inFlight)
              }),
              () =>
                Effect.andThen(Effect.sleep("500 millis"), answer),
              () => Effect.sync(() => inFlight--)
            )))
      ).pipe(Layer.provide(mock.client))
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(
            h.followTransfers(names.map(queryOf), {
              minInterval: "1 second",
              maxInterval: "10 seconds",
              concurrency: 3
            })
          )
        ),
        Effect.provide(historyLayer({ client: slow }, { rateLimit: { limit: 4, interval: "1 second" } })),
        Effect.forkChild
      )
      yield* VirtualClock.adjust("1 minute")
      yield* Fiber.interrupt(fiber)
      // 12 quiet streams at a 10 s maxInterval, 3 polls of 500 ms at a time: every stream gets its turn, round after round.
      const counts = names.map((n) =>
        requestTimes(mock, n).length
      )
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(5)
      expect(most).toBe(3)
    }).pipe(VirtualClock.run({ start: 1_000_000 })))

  it.effect.each(
    [
      [{ minInterval: "0 millis" }, "minInterval"],
      [{ maxInterval: "10 millis", minInterval: "1 second" }, "maxInterval"],
      [{ concurrency: 0 }, "concurrency"],
      [{ settlement: "forever" }, "settlement"]
    ] as const
  )("rejects %j with InvalidQuery(%s) before any request", ([options, parameter]) =>
    Effect.gen(function*() {
      const mock = mockService(multiService({ a: [] }))
      const error = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(h.followTransfers([queryOf("a")], options as FollowScheduler.FollowOptions))
        ),
        Effect.flip,
        Effect.provide(historyLayer(mock))
      )
      expect(error).toMatchObject({ _tag: "InvalidQuery", parameter })
      expect(mock.seen.length + mock.timeRequests.length).toBe(0)
    }))

  it.effect("a bad query names its stream, and nothing is sent", () =>
    Effect.gen(function*() {
      const mock = mockService(multiService({ a: [], b: [] }))
      const error = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Stream.runDrain(
            h.followTransfers([queryOf("a"), { stream: "b", query: { ...queryOf("b").query, limit: 0 } }])
          )
        ),
        Effect.flip,
        Effect.provide(historyLayer(mock))
      )
      expect(error).toMatchObject({ _tag: "InvalidQuery", parameter: "streams[1].limit" })
      expect(mock.seen.length + mock.timeRequests.length).toBe(0)
    }))
})
