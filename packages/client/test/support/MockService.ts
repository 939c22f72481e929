import { Clock, Effect, Layer, Redacted } from "effect"
import { BrokerConfig, BrokerHistory, BrokerHttpClient, Signer } from "../../src/index.js"
import * as NodeTransport from "../../src/NodeTransport.js"
import type { HttpClientRequest } from "./line/Http.js"
import { headersOf, HttpClient, HttpClientResponse, transportFailure } from "./line/Http.js"

export const apiKey = "mock-api-key-3f9a1c"
export const secretKey = "mock-secret-key-9b7e2d41"

/** A request as the mock transport saw it. */
export interface Seen {
  readonly n: number
  readonly at: number
  readonly path: string
  readonly query: string
  readonly params: URLSearchParams
  readonly headers: Readonly<Record<string, string>>
}

/** What the mock answers: a status and JSON body (or raw text), or a transport failure. */
export type Answer =
  | { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly status: number; readonly text: string; readonly headers?: Record<string, string> }
  | { readonly transport: string }

/**
 * A scripted service: `answer` decides each signed request's answer; `/api/v3/time` answers
 * `serverTime` (local clock + `serverOffset`). Every request is recorded.
 */
export const mockService = (
  answer: (seen: Seen) => Answer,
  options: {
    readonly serverOffset?: number
    /** An answer to the n-th `/api/v3/time` request, sent at `at`, instead of the time (`undefined`: the time). */
    readonly time?: (n: number, at: number) => Answer | undefined
  } = {}
) => {
  const seen: Array<Seen> = []
  const timeRequests: Array<number> = []
  const client = HttpClient.make((request, url) =>
    Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      if (url.pathname === "/api/v3/time") {
        timeRequests.push(at)
        const instead = options.time?.(timeRequests.length, at)
        if (instead !== undefined) return yield* respond(request, instead)
        return HttpClientResponse.fromWeb(
          request,
          Response.json({ serverTime: at + (options.serverOffset ?? 0) })
        )
      }
      const s: Seen = {
        n: seen.length + 1,
        at,
        path: url.pathname,
        query: url.search.slice(1),
        params: url.searchParams,
        headers: headersOf(request)
      }
      seen.push(s)
      return yield* respond(request, answer(s))
    })
  )
  return { seen, timeRequests, client: Layer.succeed(HttpClient.HttpClient, client) }
}

const respond = (request: HttpClientRequest, a: Answer) => {
  if ("transport" in a) {
    return Effect.fail(transportFailure(request, new Error(a.transport)))
  }
  const body = "text" in a ? a.text : JSON.stringify(a.body)
  return Effect.succeed(HttpClientResponse.fromWeb(
    request,
    new Response(body, { status: a.status, headers: { "content-type": "application/json", ...a.headers } })
  ))
}

/** Options for tests: mock base URL, fast retries. */
export const testOptions = (overrides: Partial<BrokerConfig.Options> = {}): BrokerConfig.Options => ({
  baseUrl: "https://broker.test",
  apiKey: Redacted.make(apiKey),
  secretKey: Redacted.make(secretKey),
  retry: { maxRetries: 3, baseDelay: "100 millis", maxDelay: "1 second" },
  rateLimit: { limit: 1000, interval: "1 second" },
  ...overrides
})

/** BrokerHistory over the mock transport. */
export const historyLayer = (
  mock: ReturnType<typeof mockService>,
  overrides: Partial<BrokerConfig.Options> = {}
) =>
  BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer(testOptions(overrides)))).pipe(Layer.provide(mock.client))

/**
 * `BrokerHistory.layer` over a mock transport, but signing synchronously (node:crypto) instead of
 * through WebCrypto: a WebCrypto signature completes on a real thread, so the test clock could move
 * on (or a check run) while a request sits between its slot in the budget and its send.
 */
export const historyLayerSyncSigning = (
  mock: { readonly client: Layer.Layer<HttpClient.HttpClient> },
  overrides: Partial<BrokerConfig.Options> = {}
) =>
  Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
    Layer.provide(BrokerHttpClient.layer),
    Layer.provide(Layer.succeed(Signer.Signer, NodeTransport.makeSigner(Redacted.make(secretKey)))),
    Layer.provide(BrokerConfig.layer(testOptions(overrides))),
    Layer.provide(mock.client)
  )

/** A transfer page query of one window, as the page-call tests send it. */
export const transfersPage = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  startTime: 1000,
  endTime: 2000,
  page: 1
} as const

export const transferWire = (tranId: string, timestamp: number) => ({
  tranId,
  fromAccount: "master@test.com",
  toAccount: "sub1@test.com",
  clientTranId: null,
  asset: "USDT",
  amount: "10.50000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp
})

/**
 * A service limit as the reference service applies it: at most `control.limit` accepted requests in
 * any `windowMillis` (a refused one does not count); beyond it 429 with `Retry-After` in whole seconds,
 * at least 1, until the oldest accepted request leaves the window. `control.limit` may be changed.
 */
export const limited = (limit: number, windowMillis: number, answer: (seen: Seen) => Answer) => {
  const accepted: Array<number> = []
  const control = { limit, refused: 0, refusedAt: [] as Array<number> }
  const limitedAnswer = (seen: Seen): Answer => {
    while (accepted.length > 0 && accepted[0]! <= seen.at - windowMillis) accepted.shift()
    if (accepted.length >= control.limit) {
      control.refused++
      control.refusedAt.push(seen.at)
      const freesAt = accepted[accepted.length - control.limit]! + windowMillis
      return {
        status: 429,
        body: { code: 429, msg: "Too many requests." },
        headers: { "retry-after": String(Math.max(1, Math.ceil((freesAt - seen.at) / 1000))) }
      }
    }
    accepted.push(seen.at)
    return answer(seen)
  }
  return { control, answer: limitedAnswer }
}
