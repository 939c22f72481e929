// An application's own HttpClient under BrokerHttpClient.layer: one that fails on every status but
// 2xx (`HttpClient.filterStatusOk`, a common app-wide setting) gives the same errors for the same
// answers as any other client, and a failure the client describes keeps its description.
import type { BrokerError } from "@broker-history/client-effect4"
import { BrokerHistory } from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Effect, Fiber, Layer, Result } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer } from "./support/MockService.js"
import { historyLayerSyncSigning, mockService, transfersPage } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const transfers = transfersPage

/** One page call through `client`, with the clock moved on until it ends. */
const call = (client: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
      Effect.flatMap((h) => h.transferHistory(transfers)),
      Effect.provide(historyLayerSyncSigning({ client })),
      Effect.result,
      Effect.forkChild
    )
    yield* VirtualClock.adjust("30 seconds")
    return yield* Fiber.join(fiber)
  }).pipe(VirtualClock.run())

/** The mock service's client wrapped as an application wraps its own. */
const statusOk = (answer: (n: number) => Answer) => {
  const mock = mockService((s) => answer(s.n))
  const client = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(HttpClient.HttpClient), HttpClient.filterStatusOk)
  )
    .pipe(Layer.provide(mock.client))
  return { mock, client }
}

describe("any HttpClient", () => {
  it.effect("a client failing on non-2xx: a wrong key is an AuthenticationError after one request", () =>
    Effect.gen(function*() {
      const { client, mock } = statusOk(() => ({
        status: ErrorBody.Errors.invalidApiKey.status,
        body: { code: ErrorBody.Errors.invalidApiKey.code, msg: ErrorBody.Errors.invalidApiKey.msg }
      }))
      const result = yield* call(client)
      expect(Result.isFailure(result) && result.failure._tag).toBe("AuthenticationError")
      expect(mock.seen.length).toBe(1)
    }))

  it.effect("a client failing on non-2xx: a 429 waits out its Retry-After, then the page is read", () =>
    Effect.gen(function*() {
      const { client, mock } = statusOk((n) =>
        n === 1
          ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "3" } }
          : { status: 200, body: [] }
      )
      const result = yield* call(client)
      expect(Result.isSuccess(result)).toBe(true)
      expect(mock.seen.length).toBe(2)
      expect(mock.seen[1]!.at - mock.seen[0]!.at).toBeGreaterThanOrEqual(3000)
    }))

  it.effect("a failure the client describes (its own deadline) keeps that description", () =>
    Effect.gen(function*() {
      const client = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({ request, description: "the app's 2 s deadline passed" })
            })
          )
        )
      )
      const result = yield* call(client)
      const error = Result.isFailure(result) ? result.failure as BrokerError.BrokerError : undefined
      expect(error?._tag).toBe("TransportError")
      expect((error as BrokerError.TransportError).description).toContain("the app's 2 s deadline passed")
    }))
})
