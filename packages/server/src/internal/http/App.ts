/**
 * The service's app: each request counted (requests received, answers by HTTP status, injected faults
 * by kind) and logged (one line: method, path, outcome, duration; never a query string), and the
 * injected fault, if any, applied around the routes' answer (a 500 or 429 in its place, a dropped
 * connection, no answer at all, a body cut short, latency before the answer).
 *
 * @internal
 */
import { ErrorBody } from "@broker-history/domain"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Faults from "../../Faults.js"
import * as RawQuery from "../request/RawQuery.js"
import { failure } from "./Answers.js"
import type { Arrivals } from "./Listener.js"

/** What the server has answered so far: requests received, answers by HTTP status, injected faults by kind. */
export interface Counts {
  readonly requests: number
  readonly byStatus: Record<number, number>
  readonly faults: Record<string, number>
}

/** The counters, updated in place by the server. */
export interface Counters {
  readonly request: () => void
  readonly status: (status: number) => void
  readonly fault: (fault: string) => void
  /** A copy of the counts so far. */
  readonly snapshot: () => Counts
}

/** Counters at zero. */
export const makeCounters = (): Counters => {
  let requests = 0
  const byStatus: Record<number, number> = {}
  const faults: Record<string, number> = {}
  return {
    request: () => {
      requests++
    },
    status: (status) => {
      byStatus[status] = (byStatus[status] ?? 0) + 1
    },
    fault: (fault) => {
      faults[fault] = (faults[fault] ?? 0) + 1
    },
    snapshot: () => ({ requests, byStatus: { ...byStatus }, faults: { ...faults } })
  }
}

/**
 * A request's path for the log: never its query string; control and non-ASCII characters escaped so
 * that a hostile path cannot forge log lines.
 */
export const loggablePath = (url: string): string => {
  const path = RawQuery.pathOfUrl(url)
  const shown = path.length > 200 ? path.slice(0, 200) + "..." : path
  return shown.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))
}

/** `GET /api/v3/ping 200 1ms`: the log line of one request. */
export const requestLine = (method: string, url: string, outcome: string | number, elapsedMs: number): string =>
  `${method} ${loggablePath(url)} ${outcome} ${Math.round(elapsedMs)}ms`

/** What the app needs besides the routes' answer. */
export interface Context {
  readonly injector: Faults.Injector
  readonly counters: Counters
  readonly arrivals: Arrivals
  readonly logRequests: boolean
}

/** `answer` with the faults of `context.injector` applied, each request counted and logged. */
export const make = <E, R>(
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  context: Context
) =>
  Effect.gen(function*() {
    const { counters, injector } = context
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = context.arrivals.of(request).clock
    const log = (outcome: string | number) =>
      context.logRequests
        ? Effect.logInfo(requestLine(request.method, request.url, outcome, performance.now() - started))
        : Effect.void
    counters.request()
    const fault = injector.next()
    const settings = injector.settings()
    if (fault !== undefined) counters.fault(fault)
    const latency = Duration.toMillis(settings.latency) > 0 ? Effect.sleep(settings.latency) : Effect.void
    // A fault that replaces the answer comes after the latency too.
    if (fault !== undefined && fault !== "truncate") yield* latency

    switch (fault) {
      case "serverError": {
        counters.status(500)
        yield* log(500)
        return failure(ErrorBody.Errors.internal)
      }
      case "rateLimited": {
        counters.status(429)
        yield* log(429)
        return failure(ErrorBody.Errors.tooManyRequests, { "retry-after": String(settings.retryAfterSeconds) })
      }
      case "drop": {
        yield* log("dropped")
        NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
        // The platform interrupts this fiber when the connection closes.
        return yield* Effect.never
      }
      case "hang": {
        yield* log("hanging")
        return yield* Effect.never
      }
    }

    // The request is checked (signature, timestamp, rate limit) when it arrives, as an exchange's
    // gateway does; the latency delays the answer. (Delaying the request instead let the timer
    // jitter of a busy machine bunch requests up at the limiter: 429s a client could not avoid.)
    const response = yield* answer
    yield* latency
    counters.status(response.status)
    if (fault === "truncate" && response.body._tag === "Uint8Array") {
      const bytes = response.body.body
      const nodeResponse = NodeHttpServerRequest.toServerResponse(request)
      // The full Content-Length is announced, then the connection ends part-way through the body.
      nodeResponse.writeHead(response.status, { ...response.headers, connection: "close" })
      nodeResponse.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => nodeResponse.socket?.end())
      yield* log(`${response.status} truncated`)
      return yield* Effect.never
    }
    yield* log(response.status)
    return response
  }).pipe(Effect.withClock(Clock.make()))
