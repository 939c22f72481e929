import { BrokerConfig, BrokerHistory, HttpProxy } from "@broker-history/client-effect4"
import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
import { Context, Effect, Fiber, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { createHmac, timingSafeEqual } from "node:crypto"
import * as Http from "node:http"
import type * as Net from "node:net"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "../support/EffectTest.js"

const KEY = "e2e-key"
const SECRET = "e2e-secret-5c1d"

type Mode = "normal" | "429-once" | "drop" | "hang" | "truncate-once"

/**
 * A small service written independently of the library: it verifies the signature over the raw
 * query string with node:crypto and checks the timestamp, then answers generated records.
 */
const startServer = (mode: Mode) =>
  Effect.acquireRelease(
    Effect.callback<{ url: string; server: Http.Server; log: Array<string> }>((resume) => {
      const log: Array<string> = []
      let limited = false
      const sockets = new Set<Net.Socket>()
      const server = Http.createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1")
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { "content-type": "application/json", ...headers })
          res.end(JSON.stringify(body))
        }
        if (url.pathname === "/api/v3/time") return json(200, { serverTime: Date.now() })
        if (mode === "drop") return req.socket.destroy()
        if (mode === "hang") return
        if (mode === "truncate-once" && !limited) {
          // Promises more than it sends, then closes: the client must see a broken body, not a short page.
          limited = true
          res.writeHead(200, { "content-type": "application/json", "content-length": "4096" })
          res.write("[{\"amount\":\"1.0")
          return setTimeout(() => req.socket.destroy(), 20)
        }
        if (req.headers["x-mexc-apikey"] !== KEY) return json(401, { code: 700001, msg: "API-key format invalid." })
        const raw = (req.url ?? "").split("?")[1] ?? ""
        const cut = raw.lastIndexOf("&signature=")
        const payload = raw.slice(0, cut)
        const given = Buffer.from(raw.slice(cut + "&signature=".length))
        const expected = Buffer.from(createHmac("sha256", SECRET).update(payload).digest("hex"))
        if (cut < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return json(401, { code: 700002, msg: "Signature for this request is not valid." })
        }
        const timestamp = Number(url.searchParams.get("timestamp"))
        const recvWindow = Number(url.searchParams.get("recvWindow") ?? 5000)
        if (!(timestamp < Date.now() + 1000 && Date.now() - timestamp <= recvWindow)) {
          return json(400, { code: 700003, msg: "Timestamp for this request is outside of the recvWindow." })
        }
        if (mode === "429-once" && !limited) {
          limited = true
          return json(429, { code: 429, msg: "Too many requests." }, { "retry-after": "1" })
        }
        log.push(payload)
        const limit = Number(url.searchParams.get("limit") ?? 20)
        const page = Number(url.searchParams.get("page") ?? 1)
        if (url.pathname === "/api/v3/broker/sub-account/universalTransfer") {
          return json(
            200,
            Array.from({ length: limit }, (_, i) => ({
              tranId: String(page * 1000 + i),
              fromAccount: url.searchParams.get("fromAccount"),
              toAccount: null,
              clientTranId: "",
              asset: "BTC",
              amount: `0.${String(i).padStart(8, "0")}`,
              fromAccountType: url.searchParams.get("fromAccountType"),
              toAccountType: url.searchParams.get("toAccountType"),
              fromsymbol: "BTCUSDT",
              tosymbol: null,
              status: "SUCCESS",
              timestamp: 1_700_000_000_000 - i
            }))
          )
        }
        if (url.pathname === "/api/v3/broker/capital/deposit/subHisrec") {
          return json(200, [{
            amount: "1.00000000",
            coin: url.searchParams.get("coin"),
            network: "TRC20",
            status: 5,
            address: "T1",
            addressTag: "",
            txId: "0x1",
            unlockConfirm: "20",
            confirmTimes: "20",
            insertTime: 1_700_000_000_000,
            memo: null
          }])
        }
        json(404, { code: 404, msg: "not found" })
      })
      server.on("connection", (s) => {
        sockets.add(s)
        s.on("close", () => sockets.delete(s))
      })
      ;(server as any).sockets = sockets
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, server, log }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        for (const s of (server as any).sockets as Set<Net.Socket>) s.destroy()
        server.close(() => resume(Effect.void))
      })
  )

type Options = BrokerConfig.Options

const options = (baseUrl: string, overrides: Partial<Options>): Options => ({
  baseUrl,
  apiKey: Redacted.make(KEY),
  secretKey: Redacted.make(SECRET),
  recvWindow: 5000,
  retry: { maxRetries: 2, baseDelay: "20 millis", maxDelay: "100 millis" },
  ...overrides
})

/**
 * The carriers: undici driven directly (the ready-made layers), the platform `HttpClient` over the
 * same undici (its `fetch` through the transport's dispatcher), and the platform `HttpClient` over
 * the runtime's `fetch`.
 */
const carriers: ReadonlyArray<readonly [string, (o: Options) => Layer.Layer<BrokerHistory.BrokerHistory, unknown>]> = [
  [
    "undici driven directly (layerUndici)",
    (o: Options) => BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer(o)))
  ],
  [
    "platform HttpClient over undici (layer + NodeTransport.layerPlatformHttpClient)",
    (o: Options) =>
      BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer(o))).pipe(
        Layer.provide(NodeTransport.layerPlatformHttpClient),
        Layer.provide(NodeTransport.layerDispatcher(HttpProxy.none))
      )
  ],
  [
    "platform HttpClient (layer + FetchHttpClient.layer, redirects not followed)",
    (o: Options) =>
      BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer(o))).pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
      )
  ]
]

const use = <A, E>(
  layer: Layer.Layer<BrokerHistory.BrokerHistory, unknown>,
  f: (h: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, E>
) => Effect.flatMap(Effect.service(BrokerHistory.BrokerHistory), f).pipe(Effect.provide(layer))

describe.each(carriers)("end to end over HTTP on 127.0.0.1, %s", (_name, carrier) => {
  const history = (baseUrl: string, overrides: Partial<Options> = {}) => carrier(options(baseUrl, overrides))

  it.scopedLive("both endpoints: signed requests verified by node:crypto, records decoded", () =>
    Effect.gen(function*() {
      const { log, url } = yield* startServer("normal")
      const transfers = yield* use(
        history(url),
        (h) =>
          h.transferHistory({
            fromAccountType: "SPOT",
            toAccountType: "FUTURES",
            fromAccount: "sub 1@x.com",
            page: 2,
            limit: 3
          })
      )
      expect(transfers.map((t) => [t.tranId, t.amount, t.fromSymbol, t.toSymbol, t.fromAccount])).toEqual([
        ["2000", "0.00000000", "BTCUSDT", "", "sub 1@x.com"],
        ["2001", "0.00000001", "BTCUSDT", "", "sub 1@x.com"],
        ["2002", "0.00000002", "BTCUSDT", "", "sub 1@x.com"]
      ])
      const deposits = yield* use(history(url), (h) => h.depositHistory({ coin: "USDT", limit: 1000 }))
      expect(deposits).toMatchObject([{ coin: "USDT", status: "5", memo: "", amount: "1.00000000" }])
      expect(log.length).toBe(2)
      expect(log[0]).toMatch(
        /^fromAccount=sub%201%40x.com&fromAccountType=SPOT&toAccountType=FUTURES&page=2&limit=3&recvWindow=5000&timestamp=\d+$/
      )
    }))

  it.scopedLive("a wrong secret is an AuthenticationError(Signature); an unknown key is ApiKey", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer("normal")
      const badSecret = yield* Effect.flip(
        use(history(url, { secretKey: Redacted.make("wrong") }), (h) => h.depositHistory({}))
      )
      expect(badSecret).toMatchObject({ _tag: "AuthenticationError", reason: "Signature", code: 700002 })
      const badKey = yield* Effect.flip(
        use(history(url, { apiKey: Redacted.make("nobody") }), (h) => h.depositHistory({}))
      )
      expect(badKey).toMatchObject({ _tag: "AuthenticationError", reason: "ApiKey", code: 700001 })
    }))

  it.scopedLive("429 with Retry-After is waited out and the call succeeds", () =>
    Effect.gen(function*() {
      const { log, url } = yield* startServer("429-once")
      const started = Date.now()
      const page = yield* use(history(url), (h) => h.depositHistory({ coin: "BTC" }))
      expect(page.length).toBe(1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(log.length).toBe(1)
    }))

  it.scopedLive("a dropped connection ends as TransportError after the retries", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer("drop")
      const error = yield* Effect.flip(use(history(url), (h) => h.depositHistory({})))
      expect(error).toMatchObject({ _tag: "TransportError", attempts: 3 })
      expect((error as Error).message).not.toMatch(/signature=/)
    }))

  it.scopedLive("an answer that never comes ends as TransportError(Timeout)", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer("hang")
      const error = yield* Effect.flip(
        use(history(url, { requestTimeout: "200 millis", retry: { maxRetries: 1 } }), (h) => h.depositHistory({}))
      )
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Timeout", attempts: 2 })
    }))

  it.scopedLive("a refused connection ends as TransportError(Connect) after the retries", () =>
    Effect.gen(function*() {
      // A port that was just listening and is now closed: nothing answers there.
      const { server, url } = yield* startServer("normal")
      yield* Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
      const error = yield* Effect.flip(use(history(url), (h) => h.depositHistory({})))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Connect", attempts: 3 })
      expect((error as Error).message).not.toMatch(/signature=/)
    }))

  it.scopedLive("a body cut short is a TransportError(Body), and is retried", () =>
    Effect.gen(function*() {
      const once = yield* startServer("truncate-once")
      const error = yield* Effect.flip(
        use(history(once.url, { retry: { maxRetries: 0 } }), (h) => h.depositHistory({ coin: "ETH" }))
      )
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Body", attempts: 1 })
      const again = yield* startServer("truncate-once")
      const page = yield* use(history(again.url), (h) => h.depositHistory({ coin: "ETH" }))
      expect(page).toMatchObject([{ coin: "ETH", amount: "1.00000000" }])
      expect(again.log.length).toBe(1)
    }))

  it.scopedLive("interrupting a call aborts its request: the server sees the connection close", () =>
    Effect.gen(function*() {
      const { server, url } = yield* startServer("hang")
      const closed = Effect.callback<void>((resume) => {
        server.once("connection", (socket) => {
          socket.once("close", () => resume(Effect.void))
        })
      })
      const waitForClose = yield* Effect.forkChild(closed)
      // The layer (and its connection pool) stays open: only the call is interrupted.
      const services = yield* Layer.build(history(url, { requestTimeout: "1 minute" }))
      const h = Context.get(services, BrokerHistory.BrokerHistory)
      const call = yield* Effect.forkChild(h.depositHistory({}))
      yield* Effect.sleep("200 millis")
      yield* Fiber.interrupt(call)
      yield* Fiber.join(waitForClose).pipe(
        Effect.timeoutOrElse({ duration: "5 seconds", orElse: () => Effect.succeed("still open") })
      )
    }))

  it.scopedLive("nothing is sent to a refused base URL: the layer fails with a ConfigError", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(use(history("http://192.0.2.1:80"), (h) => h.depositHistory({})))
      expect(exit._tag).toBe("Failure")
      expect(String(exit)).toContain("clear text")
    }))
})
