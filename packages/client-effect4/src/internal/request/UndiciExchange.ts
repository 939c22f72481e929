/**
 * The undici carrier of `Exchange`, for Node: one `request` per attempt settled from its promise,
 * instead of the platform client's per-request fibers, scope, URL object and cached body effect,
 * which together cost more per page than parsing the page.
 *
 * @internal
 */
import type * as Undici from "@effect/platform-node/Undici"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { EventEmitter } from "node:events"
import * as BrokerError from "../../BrokerError.js"
import * as Answer from "./Answer.js"
import type { Exchange } from "./Exchange.js"

const headerText = (value: string | Array<string> | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value

/**
 * Deadlines of the attempts in flight, checked by one repeating timer (running only while attempts
 * are in flight) instead of a timer per attempt, which costs a noticeable share of each page
 * request. A deadline fires within `granularity` after it passes.
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
      if (ticker === undefined) {
        ticker = setInterval(tick, granularity)
        // Requests keep the process alive through their sockets; the ticker must not, or a command
        // would wait for its next tick (up to a second) after its last answer.
        ticker.unref?.()
      }
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
 * `AbortController`. undici's `request` does not follow redirects. A body is counted as it arrives:
 * with a `Content-Length` above `maxBytes` nothing is read, and once more than `maxBytes` have arrived
 * the body is destroyed (which aborts the request and closes its connection) and the attempt fails.
 */
export const make = (dispatcher: Undici.Dispatcher, timeout: Duration.Duration, maxBytes: number): Exchange => {
  const timeoutMillis = Duration.toMillis(timeout)
  const timeoutText = `no complete answer within ${Duration.format(timeout)}`
  const deadlines = makeDeadlines(Math.min(1000, Math.max(5, Math.floor(timeoutMillis / 8))))
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effect.callback<Answer.Reply, BrokerError.TransportError | BrokerError.ResponseDecodeError>((resume) => {
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
      const settle = (
        result: Effect.Effect<Answer.Reply, BrokerError.TransportError | BrokerError.ResponseDecodeError>
      ) => {
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
        (response) => {
          const status = response.statusCode
          const declared = Answer.contentLength(headerText(response.headers["content-length"]))
          if (declared !== undefined && declared > maxBytes) {
            response.body.destroy()
            return settle(Effect.fail(Answer.tooLarge(ctx, status, maxBytes, declared, attempt)))
          }
          readBody(response.body, maxBytes, {
            done: (body) =>
              settle(Effect.succeed({
                status,
                retryAfter: headerText(response.headers["retry-after"]),
                location: status >= 300 && status < 400 ? headerText(response.headers["location"]) : undefined,
                body
              })),
            tooLarge: () => settle(Effect.fail(Answer.tooLarge(ctx, status, maxBytes, undefined, attempt))),
            failed: (cause) => settle(Effect.fail(Answer.transportCause(ctx, "Body", cause, attempt)))
          })
        },
        (cause: unknown) => settle(Effect.fail(Answer.transportCause(ctx, undefined, cause, attempt)))
      )
      return Effect.sync(() => {
        settled = true
        deadlines.remove(deadline)
        signal.emit("abort")
      })
    })
}

/**
 * Reads `body` whole, counting: past `maxBytes` it is destroyed (aborting the request) and `tooLarge`
 * called. The bytes are this answer's own copy (`JsonBody.parse` may briefly change a byte in it), made
 * as undici's own `bytes()` makes it.
 */
const readBody = (
  body: Undici.Dispatcher.ResponseData["body"],
  maxBytes: number,
  on: {
    readonly done: (bytes: Uint8Array) => void
    readonly tooLarge: () => void
    readonly failed: (cause: unknown) => void
  }
): void => {
  const chunks: Array<Buffer> = []
  let size = 0
  let over = false
  body.on("data", (chunk: Buffer) => {
    size += chunk.length
    if (size <= maxBytes) {
      chunks.push(chunk)
    } else if (!over) {
      over = true
      chunks.length = 0
      body.destroy()
      on.tooLarge()
    }
  })
  body.on("end", () => {
    if (over) return
    if (chunks.length === 1) return on.done(new Uint8Array(chunks[0]!))
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    on.done(bytes)
  })
  body.on("error", (cause) => {
    if (!over) on.failed(cause)
  })
}
