/**
 * One HTTP exchange of one attempt: send a GET with the given URL and headers, wait for the whole
 * answer, and return its status, `Retry-After` and body text, or a `TransportError`. Everything
 * above it (budget, signing, retries, error mapping, decoding, spans) is the same whatever carries it.
 *
 * Two carriers: a platform `HttpClient` here (any transport, any runtime, mocks in tests), and an
 * undici `Dispatcher` driven directly in `UndiciExchange` (Node only).
 *
 * @internal
 */
import * as Headers from "@effect/platform/Headers"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { RequestContext } from "../BrokerError.js"
import type * as BrokerError from "../BrokerError.js"
import * as Answer from "./Answer.js"
import type * as JsonBody from "./JsonBody.js"

/**
 * A complete answer: status, the `Retry-After` header when present, and the body: its bytes (this
 * answer's own copy: `JsonBody.parse` may briefly change a byte in it) or its text.
 */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly body: JsonBody.Body
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
      // Text, not bytes: a platform response rendered by a tracer or logger has had its body read as text.
      const body = yield* response.text
      return { status: response.status, retryAfter: response.headers["retry-after"], body }
    }).pipe(
      Effect.locallyWith(Headers.currentRedactedNames, redactKeyHeader),
      (exchange) => Answer.withinDeadline(exchange, ctx, attempt, timeout)
    )
}
