/**
 * One HTTP exchange of one attempt: send a GET with the given URL and headers, wait for the whole
 * answer, and return its status, `Retry-After` and body text, or a `TransportError`. Everything
 * above it (budget, signing, retries, error mapping, decoding, spans) is the same whatever carries it.
 *
 * Two carriers: a platform `HttpClient` (any transport, mocks in tests) and an undici `Dispatcher`
 * driven directly, which is what the ready-made layers use: one callback-based request per attempt
 * instead of the platform client's per-request fibers, scope, URL object and cached body effect,
 * which together cost more per page than parsing the page (see packages/bench/README.md).
 *
 * @internal
 */
import type * as Undici from "@effect/platform-node/Undici"
import * as Headers from "@effect/platform/Headers"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { RequestContext } from "../BrokerError.js"
import * as BrokerError from "../BrokerError.js"
import * as Answer from "./Answer.js"

/** A complete answer: status, the `Retry-After` header when present, and the body as text. */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly text: string
}

/**
 * Sends one GET of `url` (origin + path + signed query) with `headers` and reads the whole answer
 * within the request timeout.
 */
export type Exchange = (
  origin: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  ctx: RequestContext,
  attempt: number
) => Effect.Effect<Reply, BrokerError.TransportError>

/**
 * Over a platform `HttpClient`. The deadline is an Effect timeout (so it follows the `TestClock`), and
 * anything that renders the request headers (platform logs, spans) shows `apiKeyHeader` redacted.
 */
export const platform = (
  http: HttpClient.HttpClient,
  timeout: Duration.Duration,
  apiKeyHeader: string
): Exchange => {
  const redactKeyHeader = (names: ReadonlyArray<string | RegExp>) =>
    names.includes(apiKeyHeader) ? names : [...names, apiKeyHeader]
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.gen(function*() {
      const request = HttpClientRequest.get(origin + pathAndQuery).pipe(HttpClientRequest.setHeaders(headers))
      const response = yield* http.execute(request)
      const text = yield* response.text
      return { status: response.status, retryAfter: response.headers["retry-after"], text }
    }).pipe(
      Effect.locallyWith(Headers.currentRedactedNames, redactKeyHeader),
      (exchange) => Answer.withinDeadline(exchange, ctx, attempt, timeout)
    )
}

const headerText = (value: string | Array<string> | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value

/**
 * Body buffers, reused: a page's bytes are copied into one of these and decoded once, instead of a
 * new buffer per page (a fresh 100-500 KB buffer per page is external memory that forces full
 * garbage collections, and every page in flight at one of those gets promoted). One buffer per
 * attempt in flight; at most `keep` are kept between attempts.
 */
const makeBodyBuffers = (keep: number) => {
  const free: Array<Buffer> = []
  return {
    take: (): Buffer => free.pop() ?? Buffer.allocUnsafe(64 * 1024),
    give: (buffer: Buffer) => {
      if (free.length < keep) free.push(buffer)
    }
  }
}

/**
 * Over an undici `Dispatcher`, driven directly through its `dispatch` handler: no promise, stream or
 * abort signal per request, and the body copied into a reused buffer and decoded once. The deadline
 * covers connect, headers and the whole body; it is a wall-clock timer (this carrier talks to a real
 * network, the `TestClock` does not drive it). Interrupting the attempt aborts the request, which
 * releases its connection.
 */
export const undici = (dispatcher: Undici.Dispatcher, timeout: Duration.Duration): Exchange => {
  const timeoutMillis = Duration.toMillis(timeout)
  const timeoutText = `no complete answer within ${Duration.format(timeout)}`
  const buffers = makeBodyBuffers(16)
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.async<Reply, BrokerError.TransportError>((resume) => {
      let controller: Undici.Dispatcher.DispatchController | undefined
      let done = false
      let status = 0
      let retryAfter: string | undefined
      let body: Buffer | undefined
      let length = 0
      const release = () => {
        if (body !== undefined) buffers.give(body)
        body = undefined
      }
      const settle = (result: Effect.Effect<Reply, BrokerError.TransportError>) => {
        if (done) return
        done = true
        clearTimeout(timer)
        release()
        resume(result)
      }
      const abort = (reason: string) => {
        done = true
        clearTimeout(timer)
        release()
        controller?.abort(new Error(reason))
      }
      const timer = setTimeout(() => {
        settle(Effect.fail(
          new BrokerError.TransportError({
            request: ctx,
            reason: "Timeout",
            description: timeoutText,
            attempts: attempt
          })
        ))
        abort("deadline passed")
      }, timeoutMillis)
      const failed = (cause: unknown) =>
        settle(Effect.fail(Answer.transportCause(ctx, status === 0 ? undefined : "Body", cause, attempt)))
      try {
        dispatcher.dispatch({
          origin,
          path: pathAndQuery,
          method: "GET",
          headers,
          // The deadline above is the only timeout.
          headersTimeout: 0,
          bodyTimeout: 0
        }, {
          onRequestStart(c) {
            controller = c
            // Interrupted before the request got a connection.
            if (done) c.abort(new Error("interrupted"))
          },
          onResponseStart(_c, statusCode, responseHeaders) {
            status = statusCode
            retryAfter = headerText(responseHeaders["retry-after"])
            length = 0
          },
          onResponseData(_c, chunk) {
            if (done) return
            if (body === undefined) body = buffers.take()
            if (length + chunk.length > body.length) {
              const larger = Buffer.allocUnsafe(Math.max(body.length * 2, length + chunk.length))
              body.copy(larger, 0, 0, length)
              body = larger
            }
            chunk.copy(body, length)
            length += chunk.length
          },
          onResponseEnd() {
            if (done) return
            // A UTF-8 byte order mark is not part of the JSON text.
            const start = length >= 3 && body![0] === 0xef && body![1] === 0xbb && body![2] === 0xbf ? 3 : 0
            const text = body === undefined ? "" : body.toString("utf8", start, length)
            settle(Effect.succeed({ status, retryAfter, text }))
          },
          onResponseError(_c, error) {
            failed(error)
          }
        })
      } catch (cause) {
        failed(cause)
      }
      return Effect.sync(() => abort("interrupted"))
    })
}
