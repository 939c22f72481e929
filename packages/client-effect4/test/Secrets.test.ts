import { BrokerHistory } from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Effect, Fiber, Layer } from "effect"
import { capture, haystack } from "./support/Capture.js"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer } from "./support/MockService.js"
import { apiKey, historyLayerSyncSigning, mockService, secretKey, transferWire } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const transfers = { fromAccountType: "SPOT", toAccountType: "FUTURES", page: 1 } as const

describe("secrets never leak", () => {
  it.effect("the secret, the API key and every signature sent are absent from logs, spans and errors", () =>
    Effect.gen(function*() {
      const { captured, layer } = capture()
      const script: Array<Answer> = [
        { status: 500, body: { code: 500, msg: "Internal error" } },
        { transport: "socket hang up" },
        { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "1" } },
        { status: 200, text: "[{\"broken" },
        { status: 200, body: [transferWire("1", 5)] },
        { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
        { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
        { status: 401, body: { code: 700002, msg: ErrorBody.Errors.badSignature.msg } },
        { status: 403, body: { code: 700007, msg: ErrorBody.Errors.noPermission.msg } },
        { status: 200, body: [{ ...transferWire("2", 5), amount: 1 }] }
      ]
      const mock = mockService((s) => script[s.n - 1] ?? { transport: "ECONNRESET" })
      const errors: Array<unknown> = []
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Effect.forEach(
            [1, 2, 3, 4, 5, 6],
            () =>
              h.transferHistory(transfers).pipe(
                Effect.tapError((e) => Effect.sync(() => errors.push(e))),
                Effect.ignore
              ),
            { discard: true }
          )
        ),
        Effect.provide(
          historyLayerSyncSigning(mock, { retry: { maxRetries: 4, baseDelay: "10 millis", maxDelay: "50 millis" } })
        ),
        Effect.tapCause(Effect.logError),
        Effect.withSpan("test-root"),
        Effect.provide(layer),
        Effect.forkChild
      )
      yield* VirtualClock.adjust("30 seconds")
      yield* Fiber.join(fiber)

      const signatures = mock.seen.map((s) => s.params.get("signature")!)
      expect(signatures.length).toBeGreaterThanOrEqual(10)
      expect(errors.length).toBeGreaterThanOrEqual(3)
      expect(captured.spans.length).toBeGreaterThan(10)
      expect(captured.logs.length).toBeGreaterThan(0)
      const text = haystack(captured, errors)
      expect(text).toContain("broker.endpoint")
      for (const needle of [secretKey, apiKey, ...signatures]) {
        expect(text.includes(needle), `leaked ${needle.slice(0, 8)}…`).toBe(false)
      }
      // The key travels only in its header.
      expect(mock.seen.every((s) => s.headers["x-mexc-apikey"] === apiKey && !s.query.includes(apiKey))).toBe(true)
    }).pipe(Effect.provide(Layer.empty), VirtualClock.run()))
})
