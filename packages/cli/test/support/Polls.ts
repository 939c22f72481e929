// A forwarding proxy in front of the reference service that records every request it passes on and
// can hold chosen requests back, so a test can say which polls a result came from instead of timing it.
import * as Http from "node:http"

/** A request as the proxy received it. */
export interface Polled {
  readonly path: string
  readonly params: URLSearchParams
}

export interface Proxy {
  readonly baseUrl: string
  /** Every request received so far, in order (held ones included). */
  readonly requests: ReadonlyArray<Polled>
  /** From now on, a request for which `held` is true waits, not forwarded, until `release`. */
  readonly hold: (held: (request: Polled) => boolean) => void
  /** The requests waiting now. */
  readonly waiting: () => ReadonlyArray<Polled>
  /** Forwards every waiting request; from then on holds those for which `next` is true (default none). */
  readonly release: (next?: (request: Polled) => boolean) => void
  readonly close: () => Promise<void>
}

/** Starts a proxy on 127.0.0.1 (a free port) that forwards every request to `target`, unchanged. */
export const recordingProxy = async (target: string): Promise<Proxy> => {
  const to = new URL(target)
  const requests: Array<Polled> = []
  let held: ((request: Polled) => boolean) | undefined
  const waiting: Array<{ readonly request: Polled; readonly forward: () => void }> = []
  const server = Http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", to)
    const polled: Polled = { path: url.pathname, params: url.searchParams }
    requests.push(polled)
    const forward = () => {
      const forwarded = Http.request(
        { host: to.hostname, port: to.port, path: request.url, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        }
      )
      forwarded.on("error", () => response.destroy())
      request.pipe(forwarded)
    }
    if (held?.(polled) === true) waiting.push({ request: polled, forward })
    else forward()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    hold: (predicate) => {
      held = predicate
    },
    waiting: () => waiting.map((w) => w.request),
    release: (next) => {
      held = next
      for (const w of waiting.splice(0)) w.forward()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
