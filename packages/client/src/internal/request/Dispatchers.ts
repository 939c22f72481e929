/**
 * The undici connection pool of the Node transport (`NodeTransport.makeDispatcher`): direct, through
 * one proxy URL, or through the proxies of the environment (docs/configuration.md, "Proxies").
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as HttpProxy from "../../HttpProxy.js"
import * as Effects from "../line/Effects.js"
import * as Undici from "../line/Undici.js"

/**
 * Gives each request its own copy of its headers: undici's `ProxyAgent` adds a `host` header to the
 * object it is given, and the request pipeline shares one frozen headers object between requests.
 */
const ownHeaders: Undici.Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  const headers = options.headers
  if (headers === undefined || headers === null) return dispatch(options, handler)
  const copy = Array.isArray(headers) ? [...headers] : Symbol.iterator in headers ? headers : { ...headers }
  return dispatch({ ...options, headers: copy }, handler)
}

// Plain HTTP services are reached by forwarding each request to the proxy (as curl does), not through
// a CONNECT tunnel; HTTPS services always go through a tunnel, so the proxy sees no request content.
const proxyOptions = { proxyTunnel: false } as const

/**
 * A pool sending requests through `proxy`, destroyed when the scope closes; `HttpProxy.environment`
 * reads `variables` now, and a bad proxy URL there fails before anything is sent.
 */
export const make = (proxy: HttpProxy.HttpProxy, variables: Readonly<Record<string, string | undefined>>) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      switch (proxy._tag) {
        case "None":
          return Effect.succeed<Undici.Dispatcher>(new Undici.Agent())
        case "Url":
          return Effect.succeed<Undici.Dispatcher>(
            new Undici.ProxyAgent({ uri: Redacted.value(proxy.url), ...proxyOptions }).compose(ownHeaders)
          )
        case "Environment":
          return Effect.map(
            Effects.fromResult(HttpProxy.fromEnvironment(variables)),
            ({ http, https, noProxy }) =>
              http === undefined && https === undefined
                ? new Undici.Agent()
                : new Undici.EnvHttpProxyAgent({
                  // Given explicitly (empty: none), so undici does not read the environment again.
                  httpProxy: http === undefined ? "" : Redacted.value(http),
                  httpsProxy: https === undefined ? "" : Redacted.value(https),
                  noProxy,
                  ...proxyOptions
                }).compose(ownHeaders)
          )
      }
    }),
    (dispatcher) => Effect.promise(() => dispatcher.destroy())
  )
