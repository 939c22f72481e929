// The Node transports through a real forward proxy on 127.0.0.1, in front of the reference service,
// on both lines: every request of a stream, page and server-time alike, goes through the proxy
// chosen by option, by BROKER_PROXY or by HTTP_PROXY (the platform client over the transport's
// dispatcher too), none when NO_PROXY names the service, and a bad proxy is refused before anything
// is sent.
import * as Endpoint from "@broker-history/core/protocol/Endpoint"
import { beforeEach, describe, expect, it, onTestFinished } from "vitest"
import { startForwardProxy } from "../src/ForwardProxy.js"
import type { ForwardProxy } from "../src/ForwardProxy.js"
import type { Line, Settings } from "../src/Line.js"
import { failure, layerFailure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Service } from "../src/ReferenceService.js"
import { clientSettings, withReferenceService } from "../src/ReferenceService.js"

const END = Date.UTC(2026, 0, 1)
const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", since: END - 400 * 86_400_000, limit: 10 } as const

const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"] as const

/** Every proxy variable of the process unset, then `variables` set (each test's are put back after it). */
const onlyVariables = (variables: Partial<Record<(typeof PROXY_VARIABLES)[number], string>> = {}) => {
  for (const name of PROXY_VARIABLES) delete process.env[name]
  Object.assign(process.env, variables)
}

/** A seeded reference service on 127.0.0.1 for `use`. */
const withServer = <A>(use: (server: Service) => Promise<A>) =>
  withReferenceService(
    { host: "127.0.0.1", port: 0, logRequests: false, seed: { seed: 5, transfers: 1500, deposits: 0, end: END } },
    use
  )

/** A forward proxy stopped when the test ends. */
const startProxy = async (authenticate?: Parameters<typeof startForwardProxy>[0]) => {
  const proxy = await startForwardProxy(authenticate)
  onTestFinished(() => proxy.stop())
  return proxy
}

/** The client's settings for `server`, no retries; `overrides` choose how the line is built. */
const settingsFor = (server: Service, overrides: Partial<Settings> = {}) =>
  clientSettings(server, { retry: { maxRetries: 0 }, ...overrides })

/** Streams the seeded transfers on `line` built from `settings`; how many records and server requests. */
const transfersOver = (line: Line, server: Service, settings: Settings) =>
  line.withClient(settings, async (client) => {
    const records = success(await client.transfers(query))
    return { records: records.length, requests: (await server.stats()).requests }
  })

/** The proxy saw exactly the service's requests, page and server-time requests among them. */
const expectAllThrough = (
  proxy: ForwardProxy,
  result: { readonly records: number; readonly requests: number },
  server: Service
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

describe.each(Lines.all)("the Node transports through an HTTP proxy ($name)", (line) => {
  beforeEach(() => {
    const before = PROXY_VARIABLES.map((name) => [name, process.env[name]] as const)
    return () => {
      for (const [name, value] of before) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })

  it("layerProxy(url): every request of a transfers stream goes through the proxy", () =>
    withServer(async (server) => {
      onlyVariables()
      const proxy = await startProxy()
      const result = await transfersOver(line, server, settingsFor(server, { proxy: proxy.url }))
      expectAllThrough(proxy, result, server)
    }))

  it("the platform client over layerDispatcher(url): every request of BrokerHistory.layer goes through the proxy", () =>
    withServer(async (server) => {
      onlyVariables()
      const proxy = await startProxy()
      const result = await transfersOver(
        line,
        server,
        settingsFor(server, { transport: "platformUndici", proxy: proxy.url })
      )
      expectAllThrough(proxy, result, server)
    }))

  it("HTTP_PROXY, read by the default layer (BrokerHistory.layerUndici): every request goes through it", () =>
    withServer(async (server) => {
      const proxy = await startProxy()
      onlyVariables({ HTTP_PROXY: proxy.url })
      const result = await transfersOver(line, server, settingsFor(server, { transport: "undici" }))
      expectAllThrough(proxy, result, server)
    }))

  it("NO_PROXY=127.0.0.1 sends everything directly; so do BROKER_PROXY=none and layerProxy(\"none\")", () =>
    withServer(async (server) => {
      const proxy = await startProxy()
      onlyVariables({ HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" })
      const noProxy = await transfersOver(line, server, settingsFor(server, { transport: "undici" }))
      expect(noProxy.records).toBeGreaterThan(20)
      expect(noProxy.requests).toBeGreaterThan(1)
      onlyVariables({ HTTP_PROXY: proxy.url })
      const none = await transfersOver(line, server, settingsFor(server, { proxy: "none" }))
      expect(none.requests).toBeGreaterThan(noProxy.requests)
      const configured = await transfersOver(
        line,
        server,
        settingsFor(server, { layerConfig: { BROKER_PROXY: "none" } })
      )
      expect(configured.requests).toBeGreaterThan(none.requests)
      expect(proxy.forwarded).toEqual([])
      expect(proxy.tunnels).toEqual([])
      // The check sees what it looks for: the same layer without NO_PROXY does use the proxy.
      const through = await transfersOver(line, server, settingsFor(server, { transport: "undici" }))
      expect(proxy.forwarded.length).toBe(through.requests - configured.requests)
    }))

  it("BROKER_PROXY (BrokerHistory.layerConfig's transport) wins over HTTP_PROXY", () =>
    withServer(async (server) => {
      const chosen = await startProxy()
      const other = await startProxy()
      onlyVariables({ HTTP_PROXY: other.url })
      const result = await transfersOver(
        line,
        server,
        settingsFor(server, { layerConfig: { BROKER_PROXY: chosen.url } })
      )
      expectAllThrough(chosen, result, server)
      expect(other.forwarded).toEqual([])
    }))

  it("credentials in the proxy URL are sent to the proxy and appear in no error", () =>
    withServer(async (server) => {
      onlyVariables()
      const expected = `Basic ${Buffer.from("user:pa ss/word").toString("base64")}`
      const proxy = await startProxy((request) => request.headers["proxy-authorization"] === expected)
      const host = proxy.url.slice("http://".length)
      const result = await transfersOver(
        line,
        server,
        settingsFor(server, { proxy: { redacted: `http://user:pa%20ss%2Fword@${host}` } })
      )
      expectAllThrough(proxy, result, server)

      const refused = await line.withClient(
        settingsFor(server, { proxy: { redacted: `http://user:wrong-secret@${host}` } }),
        (client) => client.transfers(query)
      )
      const text = JSON.stringify(failure(refused))
      expect(text).toContain("407")
      expect(text).not.toContain("wrong-secret")
    }))

  it("a bad proxy URL (option, BROKER_PROXY or HTTP_PROXY) is a ConfigError naming it; nothing is sent", () =>
    withServer(async (server) => {
      onlyVariables()
      const option = await layerFailure(line, settingsFor(server, { proxy: "htp://user:secret@127.0.0.1:3128" }))
      expect(option).toContain("proxy must be an http:// or https:// proxy URL, got htp:")
      const configured = await layerFailure(
        line,
        settingsFor(server, { layerConfig: { BROKER_PROXY: "127.0.0.1:3128" } })
      )
      expect(configured).toContain("BROKER_PROXY must start with http:// or https://")
      onlyVariables({ HTTP_PROXY: "http://user:secret@127.0.0.1:3128/some/path" })
      const fromEnvironment = await layerFailure(line, settingsFor(server, { transport: "undici" }))
      expect(fromEnvironment).toContain("HTTP_PROXY must be the proxy's origin only")

      for (const text of [option, configured, fromEnvironment]) expect(text).not.toContain("secret")
      expect((await server.stats()).requests).toBe(0)
      // A lower-case variable that is set wins, even when the upper-case one is good.
      for (const transport of ["undici", "platformUndici"] as const) {
        const lowerCase = await layerFailure(
          line,
          settingsFor(server, {
            transport,
            proxy: "environment",
            proxyVariables: { https_proxy: "http://", HTTPS_PROXY: "http://ok:1" }
          })
        )
        expect(lowerCase).toContain("https_proxy")
      }
    }))
})
