import { BrokerHistory } from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Effect, Fiber } from "effect"
import { capture } from "./support/Capture.js"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer } from "./support/MockService.js"
import { historyLayerSyncSigning, mockService, transferWire } from "./support/MockService.js"
import * as TestClock from "./support/TestClock.js"

const query = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  startTime: 1000,
  endTime: 2000,
  page: 2,
  limit: 50
} as const

const run = (script: ReadonlyArray<Answer>, traced: boolean) =>
  Effect.gen(function*() {
    const { captured, layer } = capture()
    const mock = mockService((s) => script[s.n - 1] ?? { status: 200, body: [] })
    const call = Effect.service(BrokerHistory.BrokerHistory).pipe(
      Effect.flatMap((h) => h.transferHistory(query)),
      Effect.withSpan("caller"),
      Effect.provide(
        historyLayerSyncSigning(mock, { retry: { maxRetries: 3, baseDelay: "10 millis", maxDelay: "10 millis" } })
      ),
      traced ? (e) => e : Effect.withTracerEnabled(false),
      Effect.provide(layer),
      Effect.forkChild
    )
    const fiber = yield* call
    for (let i = 0; i < 10; i++) yield* TestClock.adjust("1 second")
    const page = yield* Fiber.join(fiber)
    return { page, spans: captured.spans, mock }
  })

describe("tracing", () => {
  it.effect("one client span per call, under the caller's span, with a child per attempt", () =>
    Effect.gen(function*() {
      const { page, spans } = yield* run([
        { status: 503, body: { code: 503, msg: "busy" } },
        { status: 200, body: [transferWire("1", 1500), transferWire("2", 1600)] }
      ], true)
      expect(page.length).toBe(2)
      const get = spans.filter((s) => s.name === "BrokerHttpClient.get transferHistory")
      expect(get).toHaveLength(1)
      expect(get[0]).toMatchObject({
        kind: "client",
        parent: "caller",
        ended: true,
        attributes: {
          "broker.endpoint": "transferHistory",
          "http.request.method": "GET",
          "url.path": "/api/v3/broker/sub-account/universalTransfer",
          "broker.window.start": 1000,
          "broker.window.end": 2000,
          "broker.page": 2,
          "broker.limit": 50,
          "broker.records": 2
        }
      })
      const attempts = spans.filter((s) => s.name === "BrokerHttpClient.attempt")
      expect(attempts.map((s) => [s.parent, s.attributes["broker.attempt"], s.attributes["http.response.status_code"]]))
        .toEqual([
          ["BrokerHttpClient.get transferHistory", 1, 503],
          ["BrokerHttpClient.get transferHistory", 2, 200]
        ])
      expect(attempts.every((s) => s.ended)).toBe(true)
      // The failed attempt records its failure; a successful span does not keep the page it returned.
      expect(attempts[0]!.events.at(-1)).toContain("ServerError")
      expect(attempts[1]!.events.at(-1)).not.toContain("SUCCESS")
      expect(get[0]!.events.at(-1)).not.toContain("SUCCESS")
    }))

  it.effect("a clock resync after a timestamp rejection is traced inside the call", () =>
    Effect.gen(function*() {
      const { spans } = yield* run([
        { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
        { status: 200, body: [] }
      ], true)
      expect(spans.filter((s) => s.name === "ServerClock.sync").map((s) => s.parent)).toEqual([
        "BrokerHttpClient.get transferHistory"
      ])
      // The clock's own request is an attempt like any other, inside the sync's span.
      const attempts = spans.filter((s) => s.name === "BrokerHttpClient.attempt")
      expect(attempts.map((s) => [s.parent, s.attributes["broker.attempt"]])).toEqual([
        ["BrokerHttpClient.get transferHistory", 1],
        ["ServerClock.sync", 1],
        ["BrokerHttpClient.get transferHistory", 2]
      ])
    }))

  it.effect("with tracing disabled the call works the same: retried, decoded", () =>
    Effect.gen(function*() {
      const { mock, page, spans } = yield* run([
        { status: 503, body: { code: 503, msg: "busy" } },
        { status: 200, body: [transferWire("1", 1500)] }
      ], false)
      expect(page.map((r) => r.tranId)).toEqual(["1"])
      expect(mock.seen.length).toBe(2)
      expect(spans.filter((s) => s.name.startsWith("BrokerHttpClient"))).toEqual([])
    }))
})
