/**
 * One HTTP exchange of one attempt: send a GET with the given URL and headers, wait for the whole
 * answer, and return its status, `Retry-After`, `Location` and body, or a `TransportError` (or a
 * `ResponseDecodeError` for a body over `maxResponseBytes`, which is never read whole: the count
 * stops, the request is aborted). Redirects are not followed. Everything above it (budget, signing,
 * retries, error mapping, decoding, spans) is the same whatever carries it.
 *
 * Two carriers: a platform `HttpClient` here (any transport, any runtime, mocks in tests), and an
 * undici `Dispatcher` driven directly in `UndiciExchange` (Node only).
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { RequestContext } from "../../BrokerError.js"
import * as BrokerError from "../../BrokerError.js"
import * as Effects from "../line/Effects.js"
import * as Http from "../line/Http.js"
import * as Answer from "./Answer.js"

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
) => Effect.Effect<Answer.Reply, BrokerError.TransportError | BrokerError.ResponseDecodeError>

/**
 * Over a platform `HttpClient` (sent as `line/Http.ts` says: no client span, the key header
 * redacted). The deadline is an Effect timeout (so it follows the `TestClock`). The body is read as a
 * stream and counted: past
 * `maxBytes` (or with a `Content-Length` above it, before reading) the attempt fails, and closing the
 * request's scope aborts it, which drops the connection. Whether a redirect is followed is the
 * client's choice (fetch follows by default; docs/architecture.md); a status the client refuses
 * (`HttpClient.filterStatusOk`) is read as its answer.
 */
export const platform = (
  http: Http.Client,
  timeout: Duration.Duration,
  apiKeyHeader: string,
  maxBytes: number
): Exchange => {
  const send = Http.sender(http, apiKeyHeader)
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.gen(function*() {
      // A status the client refuses is read as any other answer: the same answer gives the same
      // error on every client.
      const response = yield* send(origin + pathAndQuery, headers)
      const body = yield* boundedText(response, maxBytes, ctx, attempt)
      return {
        status: response.status,
        retryAfter: response.headers["retry-after"],
        location: response.status >= 300 && response.status < 400 ? response.headers["location"] : undefined,
        body
      }
    }).pipe(
      Effect.scoped,
      (exchange) => withinDeadline(exchange, ctx, attempt, timeout)
    )
}

/**
 * The body's text, read as a stream of bytes and decoded as it comes (UTF-8, a leading byte order
 * mark dropped, as `Response.text()` does), or `TooLarge` once more than `maxBytes` have arrived.
 * Text, not bytes: the bytes-in-parts parsing of `JsonBody` needs Node's buffers, and this carrier runs
 * anywhere. A body the client had already read before handing the response over (a transform that
 * renders responses, as a logger may) cannot be streamed: its text is taken, held to the same limit.
 */
const boundedText = (
  response: Http.Response,
  maxBytes: number,
  ctx: RequestContext,
  attempt: number
): Effect.Effect<string, BrokerError.ResponseDecodeError | Http.Failure> => {
  const declared = Answer.contentLength(response.headers["content-length"])
  if (declared !== undefined && declared > maxBytes) {
    return Effect.fail(Answer.tooLarge(ctx, response.status, maxBytes, declared, attempt))
  }
  const decoder = new TextDecoder()
  const parts: Array<string> = []
  let size = 0
  return Stream.runForEach(response.stream, (chunk) => {
    size += chunk.length
    if (size > maxBytes) return Effect.fail(Answer.tooLarge(ctx, response.status, maxBytes, undefined, attempt))
    parts.push(decoder.decode(chunk, { stream: true }))
    return Effect.void
  }).pipe(
    Effect.map(() => {
      parts.push(decoder.decode())
      return parts.join("")
    }),
    (read) =>
      Effects.recover(read, (error) =>
        size > 0 || error._tag === "ResponseDecodeError" ?
          Effect.fail(error) :
          Effect.flatMap(response.text, (text) =>
            new TextEncoder().encode(text).length > maxBytes
              ? Effect.fail(Answer.tooLarge(ctx, response.status, maxBytes, undefined, attempt))
              : Effect.succeed(text)))
  )
}

/**
 * One attempt's exchange with the platform's failures as `TransportError`s and a deadline: the
 * request, the answer and its body must all complete within `timeout`.
 */
const withinDeadline = <A, E>(
  exchange: Effect.Effect<A, E | Http.Failure>,
  ctx: RequestContext,
  attempt: number,
  timeout: Duration.Duration
): Effect.Effect<A, Exclude<E, Http.Failure> | BrokerError.TransportError> =>
  Effects.timeoutFail(
    Effect.mapError(exchange, (e) =>
      Http.isFailure(e)
        ? Http.transportFailure(ctx, e, attempt)
        : e as Exclude<E, Http.Failure>),
    timeout,
    () =>
      new BrokerError.TransportError({
        request: ctx,
        reason: "Timeout",
        description: `no complete answer within ${Duration.format(timeout)}`,
        attempts: attempt
      })
  )
