/**
 * A service on 127.0.0.1 (port 0) that answers from a script instead of checking anything: for the
 * suite's tests of a broken, hostile or skewed service. `/api/v3/time` answers the local time plus
 * `clockAhead`; every other request goes to the script and is recorded, with what became of its
 * answer (bytes written, connection closed before the answer was complete).
 */
import type * as Http from "node:http"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** A request as the service saw it, and what became of its answer. */
export interface Seen {
  readonly path: string
  readonly params: URLSearchParams
  /** The query string as sent (without `?`): what a signature covers. */
  readonly query: string
  readonly headers: Http.IncomingHttpHeaders
  /** When it arrived (local Unix ms). */
  readonly at: number
  /** Body bytes a `raw` answer wrote so far. */
  written: number
  /** Resolves when the answer ends: true when the connection closed before the answer was complete. */
  readonly closedEarly: Promise<boolean>
}

/**
 * How the script answers one request: JSON or text with a status, a dropped connection, or an
 * answer written by hand (`raw`: one that never ends, lies about its length, or never comes).
 */
export type Answer =
  | { readonly status: number; readonly json: unknown; readonly headers?: Record<string, string> }
  | { readonly status: number; readonly text: string; readonly headers?: Record<string, string> }
  | { readonly drop: true }
  | { readonly raw: (response: Http.ServerResponse, seen: Seen) => void }

export interface Service {
  readonly baseUrl: string
  /** The requests answered so far, in order (the time endpoint not counted). */
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
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (url.pathname === "/api/v3/time") {
      const time = { serverTime: Date.now() + (options.clockAhead ?? 0) }
      return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(time))
    }
    const entry: Seen = {
      path: url.pathname,
      params: url.searchParams,
      query: url.search.slice(1),
      headers: request.headers,
      at: Date.now(),
      written: 0,
      closedEarly: new Promise((resolve) => response.on("close", () => resolve(!response.writableFinished)))
    }
    seen.push(entry)
    const answer = script(entry)
    if ("drop" in answer) return request.socket.destroy()
    if ("raw" in answer) return answer.raw(response, entry)
    const body = "json" in answer ? JSON.stringify(answer.json) : answer.text
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    return await use({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** An answer that never comes: the connection stays open until the client gives up. */
export const hang: Answer = { raw: () => {} }

/**
 * A 200 whose body never ends (chunked, no Content-Length): a JSON array of records written as fast
 * as the client reads, until the connection closes or `cap` bytes have gone out (a bound for the test).
 */
export const endless = (cap = 1024 * 1024 * 1024): Answer => ({
  raw: (response, seen) => {
    response.writeHead(200, { "content-type": "application/json" })
    const chunk = Buffer.from(`{"tranId":"1","asset":"USDT","amount":"1","timestamp":1},`.repeat(1024))
    response.write("[")
    const pump = () => {
      while (!response.destroyed && seen.written < cap) {
        seen.written += chunk.length
        if (!response.write(chunk)) {
          response.once("drain", pump)
          return
        }
      }
      if (!response.destroyed) response.destroy()
    }
    pump()
  }
})

/** A 200 announcing `length` bytes, sending 1 KB of them and then nothing (the connection stays open). */
export const announced = (length: number): Answer => ({
  raw: (response, seen) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": String(length) })
    response.write("[" + " ".repeat(1023))
    seen.written = 1024
  }
})

/** A 200 promising 4 KB, sending the start of a record and then closing: a body cut short. */
export const cutShort: Answer = {
  raw: (response, seen) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": "4096" })
    response.write("[{\"amount\":\"1.0")
    seen.written = 15
    setTimeout(() => response.destroy(), 20)
  }
}
