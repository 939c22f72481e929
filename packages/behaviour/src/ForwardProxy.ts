/**
 * A forward HTTP proxy (the `proxy` package) on 127.0.0.1 for the suite's proxy tests: it records
 * the target of every request it forwards and of every tunnel it opens.
 */
import type * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { createProxy } from "proxy"

/** A running proxy: its URL, what it forwarded and tunnelled so far, and how to stop it. */
export interface ForwardProxy {
  readonly url: string
  readonly forwarded: ReadonlyArray<string>
  readonly tunnels: ReadonlyArray<string>
  /** Stops the proxy: its port closed, its connections dropped. */
  readonly stop: () => Promise<void>
}

/** Starts a proxy; `authenticate` (when given) decides which requests it lets through, the others get 407. */
export const startForwardProxy = (
  authenticate?: (request: Http.IncomingMessage) => boolean
): Promise<ForwardProxy> =>
  new Promise((resolve) => {
    const server = createProxy()
    if (authenticate !== undefined) server.authenticate = authenticate
    const forwarded: Array<string> = []
    const tunnels: Array<string> = []
    server.on("request", (request: Http.IncomingMessage) => forwarded.push(request.url ?? ""))
    server.on("connect", (request: Http.IncomingMessage) => tunnels.push(request.url ?? ""))
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        forwarded,
        tunnels,
        stop: () =>
          new Promise((stopped) => {
            server.closeAllConnections()
            server.close(() => stopped())
          })
      }))
  })
