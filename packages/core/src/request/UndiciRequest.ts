/**
 * One GET over an undici `Dispatcher`, driven directly: one `request` settled from its promise, with
 * a deadline over connect, headers and the whole body, and the body counted as it arrives. The
 * Node transport of both lines is this module with its outcomes turned into their tagged errors.
 * The dispatcher is typed by what is used of it, so core depends on no undici; Node only (it uses
 * `node:events` and Node's buffers), and so only a subpath, not in the package index.
 *
 * @since 0.2.0
 */
import { Buffer } from "node:buffer"
import { EventEmitter } from "node:events"
import type { Readable } from "node:stream"
import * as Deadlines from "./Deadlines.js"

/**
 * What is used of an undici `Dispatcher` (undici's `Agent`, `ProxyAgent`, `Pool`, … all fit).
 *
 * @example
 * ```ts
 * import type * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
 * import { PassThrough } from "node:stream"
 *
 * // A stand-in that answers every request with an empty page.
 * const emptyPages: UndiciRequest.Dispatcher = {
 *   request: async () => ({ statusCode: 200, headers: {}, body: new PassThrough().end("[]") })
 * }
 * assert.strictEqual((await emptyPages.request({
 *   origin: "http://127.0.0.1:8080",
 *   path: "/",
 *   method: "GET",
 *   headers: {},
 *   signal: null,
 *   headersTimeout: 0,
 *   bodyTimeout: 0
 * })).statusCode, 200)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Dispatcher {
  request(options: {
    readonly origin: string
    readonly path: string
    readonly method: "GET"
    readonly headers: Readonly<Record<string, string>>
    readonly signal: EventEmitter | null
    readonly headersTimeout: number
    readonly bodyTimeout: number
  }): Promise<{
    readonly statusCode: number
    readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
    readonly body: Readable
  }>
}

/**
 * A whole answer: its status, `Retry-After`, `Location` (for a 3xx only) and body bytes (this
 * answer's own copy).
 *
 * @example
 * ```ts
 * import type * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
 *
 * const reply: UndiciRequest.Reply = {
 *   status: 429,
 *   retryAfter: "1",
 *   location: undefined,
 *   body: new TextEncoder().encode(`{"code":429,"msg":"Too many requests."}`)
 * }
 * assert.strictEqual(reply.status, 429)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly location: string | undefined
  readonly body: Uint8Array
}

/**
 * How one request ends; exactly one of these is called, once (none after `cancel`):
 * - `reply`: the whole answer arrived;
 * - `timeout`: no whole answer within the timeout (the request is aborted);
 * - `tooLarge`: a `Content-Length` (`declared`) above the limit, nothing read, or more than the limit
 *   arrived (`declared` undefined); the body is destroyed, which closes its connection;
 * - `failed`: the request failed (`stage` undefined: connecting, sending, the head) or its body did
 *   (`"Body"`), with undici's error.
 *
 * @example
 * ```ts
 * import type * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
 *
 * const outcomes: Array<string> = []
 * const on: UndiciRequest.Outcome = {
 *   reply: (reply) => outcomes.push(`reply ${reply.status}`),
 *   timeout: () => outcomes.push("timeout"),
 *   tooLarge: (status, declared) => outcomes.push(`too large ${status} ${declared ?? "counted"}`),
 *   failed: (stage, cause) => outcomes.push(`failed ${stage ?? "Request"}: ${String(cause)}`)
 * }
 * on.tooLarge(200, undefined)
 * assert.deepStrictEqual(outcomes, ["too large 200 counted"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Outcome {
  readonly reply: (reply: Reply) => void
  readonly timeout: () => void
  readonly tooLarge: (status: number, declared: number | undefined) => void
  readonly failed: (stage: "Body" | undefined, cause: unknown) => void
}

/**
 * Starts one GET of `origin` + `path` with `headers`; `on` hears how it ends. Returns `cancel`,
 * which aborts the request (releasing its connection) and silences `on`.
 *
 * @example
 * ```ts
 * import type * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
 *
 * const send: UndiciRequest.Send = (_origin, _path, _headers, on) => {
 *   on.reply({ status: 200, retryAfter: undefined, location: undefined, body: new Uint8Array() })
 *   return () => {}
 * }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Send = (
  origin: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  on: Outcome
) => () => void

const headerText = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.[0]

/** A `Content-Length` as a number of bytes; `undefined` when absent or not a whole number. */
const declaredLength = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined

/**
 * `Send` over `dispatcher`: each request has `timeoutMillis` for connect, headers and the whole body
 * (wall-clock time, checked by one timer for all of them, `Deadlines`, so it fires up to an eighth of
 * the timeout, at most 1 s, late; undici's own timeouts are off) and at most `maxBytes` of body. The
 * abort signal is an `EventEmitter` (which undici accepts), lighter than an `AbortController`.
 * undici's `request` does not follow redirects: a 3xx comes back as it is, with its `Location`.
 *
 * @example
 * ```ts
 * import * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
 * import { PassThrough } from "node:stream"
 *
 * const dispatcher: UndiciRequest.Dispatcher = {
 *   request: async () => ({ statusCode: 200, headers: {}, body: new PassThrough().end("[1,2]") })
 * }
 * const send = UndiciRequest.make(dispatcher, 30_000, 4)
 * const outcome = await new Promise<string>((resolve) =>
 *   send("http://127.0.0.1:8080", "/page", {}, {
 *     reply: (reply) => resolve(new TextDecoder().decode(reply.body)),
 *     timeout: () => resolve("timeout"),
 *     tooLarge: () => resolve("too large"),
 *     failed: () => resolve("failed")
 *   })
 * )
 * // 5 bytes arrived where 4 at most are read:
 * assert.strictEqual(outcome, "too large")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (dispatcher: Dispatcher, timeoutMillis: number, maxBytes: number): Send => {
  const deadlines = Deadlines.make(Deadlines.granularity(timeoutMillis))
  return (origin, path, headers, on) => {
    const signal = new EventEmitter()
    let settled = false
    /** Whether this is the outcome: the first one is, and it ends the deadline. */
    const settle = (): boolean => {
      if (settled) return false
      settled = true
      deadlines.remove(deadline)
      return true
    }
    const deadline: Deadlines.Deadline = {
      at: Date.now() + timeoutMillis,
      expire: () => {
        if (settle()) on.timeout()
        signal.emit("abort")
      }
    }
    deadlines.add(deadline)
    dispatcher.request({
      origin,
      path,
      method: "GET",
      headers,
      signal,
      // The deadline above is the only timeout.
      headersTimeout: 0,
      bodyTimeout: 0
    }).then(
      (response) => {
        const status = response.statusCode
        const declared = declaredLength(headerText(response.headers["content-length"]))
        if (declared !== undefined && declared > maxBytes) {
          response.body.destroy()
          if (settle()) on.tooLarge(status, declared)
          return
        }
        readBody(response.body, maxBytes, {
          done: (body) => {
            if (settle()) {
              on.reply({
                status,
                retryAfter: headerText(response.headers["retry-after"]),
                location: status >= 300 && status < 400 ? headerText(response.headers["location"]) : undefined,
                body
              })
            }
          },
          tooLarge: () => {
            if (settle()) on.tooLarge(status, undefined)
          },
          failed: (cause) => {
            if (settle()) on.failed("Body", cause)
          }
        })
      },
      (cause: unknown) => {
        if (settle()) on.failed(undefined, cause)
      }
    )
    return () => {
      settle()
      signal.emit("abort")
    }
  }
}

/**
 * Reads `body` whole, counting: past `maxBytes` it is destroyed (aborting the request) and `tooLarge`
 * called. The bytes are this answer's own copy (`JsonBody.parse` may briefly change a byte in it), made
 * as undici's own `bytes()` makes it.
 */
const readBody = (
  body: Readable,
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
