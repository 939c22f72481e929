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
import { EventEmitter } from "node:events"
import type { RequestContext } from "../BrokerError.js"
import * as BrokerError from "../BrokerError.js"
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

const headerText = (value: string | Array<string> | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value

/**
 * Deadlines of the attempts in flight, checked by one repeating timer (running only while attempts
 * are in flight) instead of a timer per attempt: a per-request timer and abort signal were ~50 us of
 * each page request. A deadline fires within `granularity` after it passes.
 */
const makeDeadlines = (granularity: number) => {
  const inFlight = new Set<{ readonly at: number; readonly expire: () => void }>()
  let ticker: ReturnType<typeof setInterval> | undefined
  const tick = () => {
    const now = Date.now()
    for (const entry of inFlight) {
      if (entry.at <= now) {
        inFlight.delete(entry)
        entry.expire()
      }
    }
    if (inFlight.size === 0 && ticker !== undefined) {
      clearInterval(ticker)
      ticker = undefined
    }
  }
  return {
    add: (entry: { readonly at: number; readonly expire: () => void }) => {
      inFlight.add(entry)
      ticker ??= setInterval(tick, granularity)
    },
    remove: (entry: { readonly at: number; readonly expire: () => void }) => {
      inFlight.delete(entry)
    }
  }
}

/**
 * Over an undici `Dispatcher`, driven directly: one request per attempt, settled from its promise.
 * The deadline covers connect, headers and the whole body; it is wall-clock time (this carrier talks
 * to a real network, the `TestClock` does not drive it) and fires within an eighth of the timeout
 * (at most 1 s) after it passes. Interrupting the attempt aborts the request, which releases its
 * connection. The abort signal is an `EventEmitter` (which undici accepts), lighter than an
 * `AbortController`.
 */
export const undici = (dispatcher: Undici.Dispatcher, timeout: Duration.Duration): Exchange => {
  const timeoutMillis = Duration.toMillis(timeout)
  const timeoutText = `no complete answer within ${Duration.format(timeout)}`
  const deadlines = makeDeadlines(Math.min(1000, Math.max(5, Math.floor(timeoutMillis / 8))))
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.async<Reply, BrokerError.TransportError>((resume) => {
      const signal = new EventEmitter()
      let settled = false
      const deadline = {
        at: Date.now() + timeoutMillis,
        expire: () => {
          settle(Effect.fail(
            new BrokerError.TransportError({
              request: ctx,
              reason: "Timeout",
              description: timeoutText,
              attempts: attempt
            })
          ))
          signal.emit("abort")
        }
      }
      const settle = (result: Effect.Effect<Reply, BrokerError.TransportError>) => {
        if (settled) return
        settled = true
        deadlines.remove(deadline)
        resume(result)
      }
      deadlines.add(deadline)
      dispatcher.request({
        origin,
        path: pathAndQuery,
        method: "GET",
        headers,
        signal,
        // The deadline above is the only timeout.
        headersTimeout: 0,
        bodyTimeout: 0
      }).then(
        (response) =>
          response.body.bytes().then(
            (body) =>
              settle(Effect.succeed({
                status: response.statusCode,
                retryAfter: headerText(response.headers["retry-after"]),
                body
              })),
            (cause: unknown) => settle(Effect.fail(Answer.transportCause(ctx, "Body", cause, attempt)))
          ),
        (cause: unknown) => settle(Effect.fail(Answer.transportCause(ctx, undefined, cause, attempt)))
      )
      return Effect.sync(() => {
        settled = true
        deadlines.remove(deadline)
        signal.emit("abort")
      })
    })
}
