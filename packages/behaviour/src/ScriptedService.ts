/**
 * A service on 127.0.0.1 (port 0) that answers from a script instead of checking anything: for the
 * suite's tests of a broken, hostile or skewed service. `/api/v3/time` answers the local time plus
 * `clockAhead`; every other request goes to the script and is recorded.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** A request as the service saw it: its path, its query parameters, when it arrived (local ms). */
export interface Seen {
  readonly path: string
  readonly params: URLSearchParams
  readonly at: number
}

/** How the script answers one request: JSON or raw text with a status, or a dropped connection. */
export type Answer =
  | { readonly status: number; readonly json: unknown; readonly headers?: Record<string, string> }
  | { readonly status: number; readonly text: string; readonly headers?: Record<string, string> }
  | { readonly drop: true }

export interface Service {
  readonly baseUrl: string
  /** The history requests answered so far, in order (the time endpoint not counted). */
  readonly seen: ReadonlyArray<Seen>
}

export interface Options {
  /** Milliseconds the service's clock runs ahead of the local one (negative: behind). Default 0. */
  readonly clockAhead?: number
}

/** Runs `use` with the service, closing every connection afterwards whatever happens. */
export const withScriptedService = async <A>(
  script: (seen: Seen) => Answer,
  use: (service: Service) => Promise<A>,
  options: Options = {}
): Promise<A> => {
  const seen: Array<Seen> = []
  const server = Http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const write = (answer: Answer) => {
      if ("drop" in answer) return request.socket.destroy()
      const body = "json" in answer ? JSON.stringify(answer.json) : answer.text
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(body)
    }
    if (url.pathname === "/api/v3/time") {
      return write({ status: 200, json: { serverTime: Date.now() + (options.clockAhead ?? 0) } })
    }
    const entry = { path: url.pathname, params: url.searchParams, at: Date.now() }
    seen.push(entry)
    write(script(entry))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    return await use({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
