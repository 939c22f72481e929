// A deliberately broken service on 127.0.0.1 (port 0) for the tests of what the client does against a
// broken or malicious server: each request is answered by the current `script`, every request and
// every answer's fate (bytes written, connection closed before the answer was complete) recorded.
// The time endpoint answers the local time, so a clock resync works.
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** One answer as the server saw it. */
export interface Served {
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  /** Body bytes written so far. */
  written: number
  /** Resolves when the answer ends: true when the connection closed before the answer was complete. */
  readonly closedEarly: Promise<boolean>
}

export type Script = (request: Http.IncomingMessage, response: Http.ServerResponse, served: Served) => void

export interface Hostile {
  readonly origin: string
  /** Signed requests (everything but `/api/v3/time`), in order. */
  readonly served: Array<Served>
  script: Script
}

/** The hostile service, closed (every connection dropped) with the scope. */
export const hostileServer = (script: Script = json(200, [])) =>
  Effect.acquireRelease(
    Effect.async<{ readonly hostile: Hostile; readonly server: Http.Server }>((resume) => {
      const served: Array<Served> = []
      const hostile: Hostile = { origin: "", served, script }
      const server = Http.createServer((request, response) => {
        if (request.url?.startsWith("/api/v3/time")) {
          response.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({ serverTime: Date.now() })
          )
          return
        }
        const entry = {
          path: request.url ?? "",
          headers: request.headers,
          written: 0,
          closedEarly: new Promise<boolean>((resolve) => {
            response.on("close", () => resolve(!response.writableFinished))
          })
        }
        served.push(entry)
        hostile.script(request, response, entry)
      })
      server.listen(0, "127.0.0.1", () => {
        ;(hostile as { origin: string }).origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resume(Effect.succeed({ hostile, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ hostile }) => hostile))

/** Answers `status` with `body` as JSON and the given headers. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Script => (_, response) => {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body))
}

/** Answers `status` with `text` as it is. */
export const text = (status: number, body: string, headers: Record<string, string> = {}): Script => (_, response) => {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(body)
}

/**
 * A 200 whose body never ends (chunked, no Content-Length): a JSON array of records written as fast
 * as the client reads, until the connection closes or `cap` bytes have gone out (a bound for the test).
 */
export const endless = (cap = 1024 * 1024 * 1024): Script => (_, response, served) => {
  response.writeHead(200, { "content-type": "application/json" })
  const chunk = Buffer.from(`{"tranId":"1","asset":"USDT","amount":"1","timestamp":1},`.repeat(1024))
  response.write("[")
  const pump = () => {
    while (!response.destroyed && served.written < cap) {
      served.written += chunk.length
      if (!response.write(chunk)) {
        response.once("drain", pump)
        return
      }
    }
    if (!response.destroyed) response.destroy()
  }
  pump()
}

/** A 200 announcing `length` bytes, sending 1 KB of them and then nothing (the connection stays open). */
export const announced = (length: number): Script => (_, response, served) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": String(length) })
  response.write("[" + " ".repeat(1023))
  served.written = 1024
}
