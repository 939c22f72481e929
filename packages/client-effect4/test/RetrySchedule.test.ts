// Retries decided by an Effect `Schedule` (`BrokerConfig.Options.retry`), and the clock's requests
// through the same pipeline: the budget, the retries and the metrics count them as any other.
import {
  BrokerConfig,
  BrokerError,
  BrokerHistory,
  BrokerHttpClient,
  ServerClock,
  Signer
} from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Endpoint, TransferRecord } from "@broker-history/domain-effect4"
import { Effect, Fiber, Layer, Metric, Result, Schedule } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer } from "./support/MockService.js"
import { historyLayerSyncSigning, mockService, testOptions, transfersPage } from "./support/MockService.js"
import { delaysOf } from "./support/Schedules.js"
import * as VirtualClock from "./support/VirtualClock.js"

const transfers = transfersPage

/** `use` over the mock service with `options`, the clock moved on until it ends. */
const over = <A>(
  mock: ReturnType<typeof mockService>,
  options: Partial<BrokerConfig.Options>,
  use: (history: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, unknown>
) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
      Effect.flatMap(use),
      Effect.provide(historyLayerSyncSigning(mock, options)),
      Effect.result,
      Effect.forkChild
    )
    yield* VirtualClock.adjust("2 minutes")
    return yield* Fiber.join(fiber)
  }).pipe(VirtualClock.run())

const busy: Answer = { status: 503, body: { code: 503, msg: "busy" } }

describe("retry as a Schedule", () => {
  it.effect("Schedule.recurs(1): one retry, two requests, then the failure", () =>
    Effect.gen(function*() {
      const mock = mockService(() => busy)
      const result = yield* over(mock, { retry: Schedule.recurs(1) }, (h) => h.transferHistory(transfers))
      expect(Result.isFailure(result) && (result.failure as { _tag: string })._tag).toBe("ServerError")
      expect(mock.seen.length).toBe(2)
    }))

  it.effect("`{ schedule }` with the waits it chooses", () =>
    Effect.gen(function*() {
      const mock = mockService(() => busy)
      const schedule = Schedule.max([Schedule.spaced("7 seconds"), Schedule.recurs(3)])
      yield* over(mock, { retry: { schedule } }, (h) => h.transferHistory(transfers))
      expect(mock.seen.length).toBe(4)
      expect(mock.seen.slice(1).map((s, i) => s.at - mock.seen[i]!.at)).toEqual([7000, 7000, 7000])
    }))

  it.effect("only retryable failures reach the schedule: a wrong key is sent once, even with Schedule.forever", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({
        status: ErrorBody.Errors.invalidApiKey.status,
        body: { code: ErrorBody.Errors.invalidApiKey.code, msg: ErrorBody.Errors.invalidApiKey.msg }
      }))
      const result = yield* over(mock, { retry: Schedule.forever }, (h) => h.transferHistory(transfers))
      expect(Result.isFailure(result) && (result.failure as { _tag: string })._tag).toBe("AuthenticationError")
      expect(mock.seen.length).toBe(1)
    }))

  it.effect("a 429's Retry-After decides its wait, not the schedule", () =>
    Effect.gen(function*() {
      const mock = mockService((s) =>
        s.n === 1
          ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "5" } }
          : { status: 200, body: [] }
      )
      const result = yield* over(mock, { retry: Schedule.spaced("30 seconds") }, (h) => h.transferHistory(transfers))
      expect(Result.isSuccess(result)).toBe(true)
      expect(mock.seen.map((s) => s.at - mock.seen[0]!.at)).toEqual([0, 5000])
    }))

  it.effect("the schedule's input is the failure: a schedule may stop on what failed", () =>
    Effect.gen(function*() {
      const mock = mockService((s) => s.n <= 2 ? busy : { transport: "connection reset" })
      const onlyServerErrors = Schedule.recurs(10).pipe(
        Schedule.while(({ input }: { readonly input: { readonly _tag: string } }) => input._tag === "ServerError")
      )
      const result = yield* over(mock, { retry: onlyServerErrors }, (h) => h.transferHistory(transfers))
      expect(Result.isFailure(result) && (result.failure as { _tag: string })._tag).toBe("TransportError")
      expect(mock.seen.length).toBe(3)
    }))

  it("the default schedule: 5 retries, waits doubling from 200 ms to at most 10 s, jittered to 50–100 %", () => {
    const failure = new BrokerError.ServerError({ request: { endpoint: "transferHistory" }, status: 503, attempts: 1 })
    const millis = Effect.runSync(
      delaysOf(BrokerConfig.retrySchedule(BrokerConfig.defaults), Array(20).fill(failure))
    )
    expect(millis.length).toBe(5)
    millis.slice(0, 5).forEach((delay, i) => {
      const full = Math.min(200 * 2 ** i, 10_000)
      expect(delay).toBeGreaterThanOrEqual(full / 2)
      expect(delay).toBeLessThanOrEqual(full)
    })
  })
})

describe("the clock's requests", () => {
  it.effect("go through the budget and the retries, and are counted per endpoint", () =>
    Effect.gen(function*() {
      const requests = Metric.withAttributes(BrokerHttpClient.metrics.requests, { endpoint: "serverTime" })
      const retries = Metric.withAttributes(BrokerHttpClient.metrics.retries, { endpoint: "serverTime" })
      const before = { requests: (yield* Metric.value(requests)).count, retries: (yield* Metric.value(retries)).count }
      let times = 0
      const mock = mockService(() => ({ status: 200, body: [] }), {
        // The first time request fails as the service is busy; the retry reads the clock.
        time: () => ++times === 1 ? busy : undefined
      })
      // A budget of one request per 2 seconds: the page call waits for the clock's two requests.
      const layer = BrokerHttpClient.layer.pipe(
        Layer.provide(Signer.layerHmacSha256),
        Layer.provide(BrokerConfig.layer(testOptions({
          rateLimit: { limit: 1, interval: "2 seconds", margin: 0, adaptive: false },
          retry: { baseDelay: "100 millis" }
        }))),
        Layer.provide(mock.client)
      )
      const fiber = yield* Effect.gen(function*() {
        const clock = yield* ServerClock.ServerClock
        const client = yield* BrokerHttpClient.BrokerHttpClient
        yield* clock.sync
        return yield* client.get(Endpoint.transferHistory, [["startTime", "1000"]], TransferRecord.TransferPage)
      }).pipe(Effect.provide(layer), Effect.result, Effect.forkChild)
      yield* VirtualClock.adjust("20 seconds")
      const result = yield* Fiber.join(fiber)
      expect(Result.isSuccess(result)).toBe(true)
      expect(mock.timeRequests.length).toBe(2)
      expect(mock.seen[0]!.at - mock.timeRequests[1]!).toBeGreaterThanOrEqual(2000)
      expect((yield* Metric.value(requests)).count - before.requests).toBe(2)
      expect((yield* Metric.value(retries)).count - before.retries).toBe(1)
    }).pipe(VirtualClock.run()))
})
