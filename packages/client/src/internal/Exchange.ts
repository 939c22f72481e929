/**
 * One HTTP exchange of one attempt: send a GET with the given URL and headers, wait for the whole
 * answer, and return its status, `Retry-After` and body text, or a `TransportError`. Everything
 * above it (budget, signing, retries, error mapping, decoding, spans) is the same whatever carries it.
 *
 * Two carriers: a platform `HttpClient` (any transport, mocks in tests) and an undici `Dispatcher`
 * driven directly, which is what the ready-made layers use: one `request` per attempt settled from
 * its promise, instead of the platform client's per-request fibers, scope, URL object and cached
 * body effect, which together cost more per page than parsing the page (see packages/bench/README.md).
 * (undici's lower-level `dispatch` handler was tried too: less work per request, but collecting the
 * body from its chunks made pages survive into the old generation, 15-20 full collections per
 * 4,000 pages against 6, which cost more than it saved.)
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
 * Over an undici `Dispatcher`, driven directly: one request per attempt, settled from undici's
 * callbacks. The deadline covers connect, headers and the whole body; it is a wall-clock timer
 * (this carrier talks to a real network, the `TestClock` does not drive it). Interrupting the
 * attempt aborts the request and releases the socket.
 */
export const undici = (dispatcher: Undici.Dispatcher, timeout: Duration.Duration): Exchange => {
  const timeoutMillis = Duration.toMillis(timeout)
  const timeoutText = `no complete answer within ${Duration.format(timeout)}`
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.async<Reply, BrokerError.TransportError>((resume) => {
      const controller = new AbortController()
      let settled = false
      const settle = (result: Effect.Effect<Reply, BrokerError.TransportError>) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(result)
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
        controller.abort()
      }, timeoutMillis)
      dispatcher.request({
        origin,
        path: pathAndQuery,
        method: "GET",
        headers,
        signal: controller.signal,
        // The deadline above is the only timeout.
        headersTimeout: 0,
        bodyTimeout: 0
      }).then(
        (response) =>
          response.body.text().then(
            (text) =>
              settle(Effect.succeed({
                status: response.statusCode,
                retryAfter: headerText(response.headers["retry-after"]),
                text
              })),
            (cause: unknown) => settle(Effect.fail(Answer.transportCause(ctx, "Body", cause, attempt)))
          ),
        (cause: unknown) => settle(Effect.fail(Answer.transportCause(ctx, undefined, cause, attempt)))
      )
      return Effect.sync(() => {
        settled = true
        clearTimeout(timer)
        controller.abort()
      })
    })
}
