// The Node transport through a real forward proxy (the `proxy` package) on 127.0.0.1, in front of the
// reference service: every request of a stream, page and server-time alike, goes through the proxy
// chosen by option, by BROKER_PROXY or by HTTP_PROXY (the platform client over the transport's
// dispatcher too), none when NO_PROXY names the service, and a bad proxy is refused before anything
// is sent.
import { BrokerConfig, BrokerHistory, HttpProxy } from "@broker-history/client-effect4"
import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
import { Endpoint } from "@broker-history/domain-effect4"
import { ApiKeys } from "@broker-history/server"
import { Cause, Config, ConfigProvider, Effect, Exit, Layer, Redacted, Stream } from "effect"
import type * as Http from "node:http"
import { createProxy } from "proxy"
import { describe, expect, it } from "../support/EffectTest.js"
import * as ReferenceService from "../support/ReferenceService.js"

const END = Date.UTC(2026, 0, 1)
const seeded = { seed: { seed: 5, transfers: 1500, deposits: 0, end: END } }
const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", since: END - 400 * 86_400_000, limit: 10 } as const

/** A forward proxy on 127.0.0.1 that records the target of every request it forwards and every tunnel. */
const startProxy = (authenticate?: (request: Http.IncomingMessage) => boolean) =>
  Effect.acquireRelease(
    Effect.callback<{
      readonly url: string
      readonly forwarded: Array<string>
      readonly tunnels: Array<string>
      readonly server: Http.Server
    }>(
      (resume) => {
        const server = createProxy()
        if (authenticate !== undefined) server.authenticate = authenticate
        const forwarded: Array<string> = []
        const tunnels: Array<string> = []
        server.on("request", (request: Http.IncomingMessage) => forwarded.push(request.url ?? ""))
        server.on("connect", (request: Http.IncomingMessage) => tunnels.push(request.url ?? ""))
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          const port = typeof address === "object" && address !== null ? address.port : 0
          resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, forwarded, tunnels, server }))
        })
      }
    ),
    (proxy) =>
      Effect.callback<void>((resume) => {
        proxy.server.closeAllConnections()
        proxy.server.close(() => resume(Effect.void))
      })
  )

/** Sets process environment variables for the scope, restoring the previous values when it closes. */
const withVariables = (variables: Record<string, string | undefined>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const before: Record<string, string | undefined> = {}
      for (const [name, value] of Object.entries(variables)) {
        before[name] = process.env[name]
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      return before
    }),
    (before) =>
      Effect.sync(() => {
        for (const [name, value] of Object.entries(before)) {
          if (value === undefined) delete process.env[name]
          else process.env[name] = value
        }
      })
  )

/** Every proxy variable unset, then `variables` set, for the scope. */
const onlyVariables = (variables: Record<string, string> = {}) =>
  withVariables({
    http_proxy: undefined,
    HTTP_PROXY: undefined,
    https_proxy: undefined,
    HTTPS_PROXY: undefined,
    no_proxy: undefined,
    NO_PROXY: undefined,
    ...variables
  })

const optionsFor = (server: ReferenceService.Bridged): BrokerConfig.Options => ({
  baseUrl: server.baseUrl,
  apiKey: Redacted.make(ApiKeys.demo.apiKey),
  secretKey: Redacted.make(ApiKeys.demo.secretKey),
  rateLimit: { limit: 5000, interval: "1 second" },
  retry: { maxRetries: 0 }
})
const configFor = (server: ReferenceService.Bridged) => BrokerConfig.layer(optionsFor(server))

/** `BrokerHistory.layerConfig` with the server's settings, `BROKER_PROXY` set to `proxy`. */
const fromConfig = (server: ReferenceService.Bridged, proxy: string) =>
  BrokerHistory.layerConfig(Config.succeed(optionsFor(server))).pipe(
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { BROKER_PROXY: proxy } })))
  )

/** Streams the seeded transfers through `transport`; returns how many records and server requests. */
const transfersOver = (
  server: ReferenceService.Bridged,
  transport: Layer.Layer<BrokerHistory.BrokerHistory, unknown, BrokerConfig.BrokerConfig>
) =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const records = yield* Stream.runCollect(history.transfers(query))
    const stats = yield* server.stats
    return { records: records.length, requests: stats.requests }
  }).pipe(Effect.provide(transport.pipe(Layer.provide(configFor(server)))))

/** A seeded reference service on 127.0.0.1 for `f`; the proxies and variables `f` sets up end with it. */
const withServer = <A, E, R>(f: (server: ReferenceService.Bridged) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(ReferenceService.start({ host: "127.0.0.1", port: 0, logRequests: false, ...seeded }), f).pipe(
    Effect.scoped
  )

/** The proxy saw exactly the service's requests, page and server-time requests among them. */
const expectAllThrough = (
  proxy: { readonly forwarded: ReadonlyArray<string>; readonly tunnels: ReadonlyArray<string> },
  result: { readonly records: number; readonly requests: number },
  server: ReferenceService.Bridged
) => {
  expect(result.records).toBeGreaterThan(20)
  expect(result.requests).toBeGreaterThan(1)
  expect(proxy.tunnels).toEqual([])
  expect(proxy.forwarded.length).toBe(result.requests)
  expect(proxy.forwarded.every((url) => url.startsWith(server.baseUrl + "/"))).toBe(true)
  expect(proxy.forwarded.filter((url) => url.startsWith(server.baseUrl + Endpoint.timePath)).length).toBe(1)
  expect(proxy.forwarded.filter((url) => url.startsWith(server.baseUrl + Endpoint.transferHistory.path)).length)
    .toBe(result.requests - 1)
}

describe("NodeTransport through an HTTP proxy", () => {
  it.live("layerProxy(url): every request of a transfers stream goes through the proxy", () =>
    withServer((server) =>
      Effect.gen(function*() {
        yield* onlyVariables()
        const proxy = yield* startProxy()
        const result = yield* transfersOver(server, NodeTransport.layerProxy(proxy.url))
        expectAllThrough(proxy, result, server)
      })
    ))

  it.live("layerPlatformHttpClient over layerDispatcher(url): every request of BrokerHistory.layer goes through the proxy", () =>
    withServer((server) =>
      Effect.gen(function*() {
        yield* onlyVariables()
        const proxy = yield* startProxy()
        const dispatcher = yield* Effect.fromResult(HttpProxy.parse(proxy.url))
        const result = yield* transfersOver(
          server,
          BrokerHistory.layer.pipe(
            Layer.provide(NodeTransport.layerPlatformHttpClient),
            Layer.provide(NodeTransport.layerDispatcher(dispatcher))
          )
        )
        expectAllThrough(proxy, result, server)
      })
    ))

  it.live("HTTP_PROXY, read by the default layer (BrokerHistory.layerUndici): every request goes through it", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const proxy = yield* startProxy()
        yield* onlyVariables({ HTTP_PROXY: proxy.url })
        const result = yield* transfersOver(server, BrokerHistory.layerUndici)
        expectAllThrough(proxy, result, server)
      })
    ))

  it.live("NO_PROXY=127.0.0.1 sends everything directly; so do BROKER_PROXY=none and layerProxy(\"none\")", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const proxy = yield* startProxy()
        yield* onlyVariables({ HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" })
        const noProxy = yield* transfersOver(server, BrokerHistory.layerUndici)
        expect(noProxy.records).toBeGreaterThan(20)
        expect(noProxy.requests).toBeGreaterThan(1)
        yield* onlyVariables({ HTTP_PROXY: proxy.url })
        const none = yield* transfersOver(server, NodeTransport.layerProxy("none"))
        expect(none.requests).toBeGreaterThan(noProxy.requests)
        const configured = yield* transfersOver(server, fromConfig(server, "none"))
        expect(configured.requests).toBeGreaterThan(none.requests)
        expect(proxy.forwarded).toEqual([])
        expect(proxy.tunnels).toEqual([])
        // The check sees what it looks for: the same layer without NO_PROXY does use the proxy.
        const through = yield* transfersOver(server, BrokerHistory.layerUndici)
        expect(proxy.forwarded.length).toBe(through.requests - configured.requests)
      })
    ))

  it.live("BROKER_PROXY (BrokerHistory.layerConfig's transport) wins over HTTP_PROXY", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const chosen = yield* startProxy()
        const other = yield* startProxy()
        yield* onlyVariables({ HTTP_PROXY: other.url })
        const result = yield* transfersOver(server, fromConfig(server, chosen.url))
        expectAllThrough(chosen, result, server)
        expect(other.forwarded).toEqual([])
      })
    ))

  it.live("credentials in the proxy URL are sent to the proxy and appear in no error", () =>
    withServer((server) =>
      Effect.gen(function*() {
        yield* onlyVariables()
        const expected = `Basic ${Buffer.from("user:pa ss/word").toString("base64")}`
        const proxy = yield* startProxy((request) => request.headers["proxy-authorization"] === expected)
        const host = proxy.url.slice("http://".length)
        const result = yield* transfersOver(
          server,
          NodeTransport.layerProxy(Redacted.make(`http://user:pa%20ss%2Fword@${host}`))
        )
        expectAllThrough(proxy, result, server)

        const refused = yield* Effect.exit(
          transfersOver(server, NodeTransport.layerProxy(Redacted.make(`http://user:wrong-secret@${host}`)))
        )
        expect(Exit.isFailure(refused)).toBe(true)
        const text = Exit.isFailure(refused) ? Cause.pretty(refused.cause) : ""
        expect(text).toContain("407")
        expect(text).not.toContain("wrong-secret")
      })
    ))

  it.live("a bad proxy URL (option, BROKER_PROXY or HTTP_PROXY) is a ConfigError naming it; nothing is sent", () =>
    withServer((server) =>
      Effect.gen(function*() {
        yield* onlyVariables()
        const failure = (transport: Layer.Layer<BrokerHistory.BrokerHistory, unknown, BrokerConfig.BrokerConfig>) =>
          Effect.map(Effect.flip(transfersOver(server, transport)), (error) => String(error))

        const option = yield* failure(NodeTransport.layerProxy("htp://user:secret@127.0.0.1:3128"))
        expect(option).toContain("proxy must be an http:// or https:// proxy URL, got htp:")
        const configured = yield* failure(fromConfig(server, "127.0.0.1:3128"))
        expect(configured).toContain("BROKER_PROXY must start with http:// or https://")
        yield* onlyVariables({ HTTP_PROXY: "http://user:secret@127.0.0.1:3128/some/path" })
        const fromEnvironment = yield* failure(BrokerHistory.layerUndici)
        expect(fromEnvironment).toContain("HTTP_PROXY must be the proxy's origin only")

        for (const text of [option, configured, fromEnvironment]) expect(text).not.toContain("secret")
        expect((yield* server.stats).requests).toBe(0)
        expect(Exit.isFailure(Effect.runSyncExit(Effect.scoped(
          NodeTransport.makeDispatcher(HttpProxy.environment, { https_proxy: "http://", HTTPS_PROXY: "http://ok:1" })
        )))).toBe(true)
      })
    ))
})
