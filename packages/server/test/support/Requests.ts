/**
 * Raw HTTP for tests, independent of the server's and the domain's code: node:http requests whose
 * request target is sent byte for byte, and HMAC-SHA256 signatures computed with node:crypto.
 */
import { Data, Effect } from "effect"
import { createHmac } from "node:crypto"
import * as Http from "node:http"

export const transfersPath = "/api/v3/broker/sub-account/universalTransfer"
export const depositsPath = "/api/v3/broker/capital/deposit/subHisrec"

export interface Reply {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** The request failed below HTTP: refused, reset, cut short, or timed out. */
export class TransportFailure extends Data.TaggedError("TransportFailure")<{
  readonly reason: "error" | "timeout" | "truncated"
  readonly detail: string
  readonly status?: number
  readonly received?: number
  readonly expected?: number
}> {}

/** GET `target` (path and raw query) from `baseUrl`; no keep-alive, so every request has its own socket. */
export const get = (
  baseUrl: string,
  target: string,
  options: { readonly headers?: Record<string, string>; readonly timeoutMs?: number } = {}
): Effect.Effect<Reply, TransportFailure> =>
  Effect.async<Reply, TransportFailure>((resume) => {
    const url = new URL(baseUrl)
    let settled = false
    const done = (effect: Effect.Effect<Reply, TransportFailure>) => {
      if (!settled) {
        settled = true
        resume(effect)
      }
    }
    const request = Http.request({
      host: url.hostname,
      port: url.port,
      path: target,
      method: "GET",
      agent: false,
      headers: options.headers ?? {}
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        done(Effect.succeed({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8")
        }))
      })
      const cut = () => {
        const received = chunks.reduce((n, c) => n + c.length, 0)
        done(Effect.fail(
          new TransportFailure({
            reason: "truncated",
            detail: "the connection closed before the body ended",
            status: response.statusCode ?? 0,
            received,
            expected: Number(response.headers["content-length"] ?? NaN)
          })
        ))
      }
      response.on("aborted", cut)
      response.on("error", cut)
      response.on("close", () => {
        if (!response.complete) cut()
      })
    })
    request.on("error", (error) => done(Effect.fail(new TransportFailure({ reason: "error", detail: error.message }))))
    if (options.timeoutMs !== undefined) {
      request.setTimeout(options.timeoutMs, () => {
        done(Effect.fail(new TransportFailure({ reason: "timeout", detail: `no answer in ${options.timeoutMs} ms` })))
        request.destroy()
      })
    }
    request.end()
    return Effect.sync(() => request.destroy())
  })

/** Lowercase hex HMAC-SHA256, computed here with node:crypto (not with the domain's helper). */
export const sign = (secret: string, payload: string): string =>
  createHmac("sha256", secret).update(payload, "utf8").digest("hex")

/** RFC 3986 encoding of one name or value. */
export const encode = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

/** `name=value&…` with each part encoded, in the order given. */
export const queryOf = (params: ReadonlyArray<readonly [string, string]>): string =>
  params.map(([name, value]) => `${encode(name)}=${encode(value)}`).join("&")

export interface Credentials {
  readonly apiKey: string
  readonly secretKey: string
}

/** A signed request target: business parameters, then `timestamp` (and `recvWindow`), then the signature. */
export const signedTarget = (
  path: string,
  params: ReadonlyArray<readonly [string, string]>,
  credentials: Credentials,
  options: { readonly timestamp?: number; readonly recvWindow?: number } = {}
): string => {
  const all: Array<readonly [string, string]> = [...params]
  if (options.recvWindow !== undefined) all.push(["recvWindow", String(options.recvWindow)])
  all.push(["timestamp", String(options.timestamp ?? Date.now())])
  const query = queryOf(all)
  return `${path}?${query}&signature=${sign(credentials.secretKey, query)}`
}

/** A signed GET with the API-key header. */
export const signedGet = (
  baseUrl: string,
  path: string,
  params: ReadonlyArray<readonly [string, string]>,
  credentials: Credentials,
  options: { readonly timestamp?: number; readonly recvWindow?: number; readonly timeoutMs?: number } = {}
): Effect.Effect<Reply, TransportFailure> =>
  get(baseUrl, signedTarget(path, params, credentials, options), {
    headers: { "X-MEXC-APIKEY": credentials.apiKey },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs })
  })

/** A raw query string signed as is (for hostile strings the encoder above would never produce). */
export const signedRawGet = (
  baseUrl: string,
  path: string,
  rawQuery: string,
  credentials: Credentials
): Effect.Effect<Reply, TransportFailure> =>
  get(baseUrl, `${path}?${rawQuery}${rawQuery === "" ? "" : "&"}signature=${sign(credentials.secretKey, rawQuery)}`, {
    headers: { "X-MEXC-APIKEY": credentials.apiKey }
  })

export const json = (reply: Reply): unknown => JSON.parse(reply.body)
