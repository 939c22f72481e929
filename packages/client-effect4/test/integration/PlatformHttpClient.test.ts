// `NodeTransport.layerPlatformHttpClient`, the effect/http client over the transport's undici
// dispatcher, against servers on 127.0.0.1: a redirect is never followed, so the key header goes
// nowhere else (test/integration/EndToEnd.test.ts runs the whole end-to-end suite over it too).
import { BrokerConfig, BrokerHistory, HttpProxy } from "@broker-history/client-effect4"
import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
import { Effect, Layer, Redacted } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "../support/EffectTest.js"

/** A server on 127.0.0.1 answering every request with `answer`; `served` holds each request's URL and key header. */
const server = (answer: (response: Http.ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly origin: string; readonly served: Array<string>; readonly server: Http.Server }>(
      (resume) => {
        const served: Array<string> = []
        const s = Http.createServer((request, response) => {
          served.push(`${request.url} ${request.headers["x-mexc-apikey"] ?? "-"}`)
          answer(response)
        })
        s.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({
            origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
            served,
            server: s
          })))
      }
    ),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const historyAt = (baseUrl: string) =>
  BrokerHistory.layer.pipe(
    Layer.provide(BrokerConfig.layer({
      baseUrl,
      apiKey: Redacted.make("key-of-the-test"),
      secretKey: Redacted.make("secret"),
      retry: { maxRetries: 0 }
    })),
    Layer.provide(NodeTransport.layerPlatformHttpClient),
    Layer.provide(NodeTransport.layerDispatcher(HttpProxy.none))
  )

const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1000, endTime: 2000, page: 1 } as const

describe("NodeTransport.layerPlatformHttpClient", () => {
  it.scopedLive("a redirect is not followed: TransportError(Redirect) after one request; the other origin sees nothing", () =>
    Effect.gen(function*() {
      const elsewhere = yield* server((response) => response.writeHead(200).end("[]"))
      const redirecting = yield* server((response) =>
        response.writeHead(302, { location: `${elsewhere.origin}/moved` }).end()
      )
      const error = yield* BrokerHistory.BrokerHistory.use((history) => history.transferHistory(query)).pipe(
        Effect.provide(historyAt(redirecting.origin)),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Redirect", attempts: 1 })
      expect(error.message).toContain(`${elsewhere.origin}/moved`)
      expect(redirecting.served.filter((line) => line.includes("universalTransfer"))).toHaveLength(1)
      expect(elsewhere.served).toEqual([])
    }))
})
