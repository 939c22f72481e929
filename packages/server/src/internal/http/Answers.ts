/**
 * The service's answers as values: `{code,msg}` failures and JSON successes as platform responses,
 * and the raw HTTP text written straight to a socket that Node hands over without a request.
 *
 * @internal
 */
import { ErrorBody } from "@broker-history/domain"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

const jsonHeaders = { contentType: "application/json" } as const

/** An error row as its `{code,msg}` body, with its HTTP status and any extra headers. */
export const failure = (row: ErrorBody.ErrorRow, headers?: Record<string, string>) =>
  HttpServerResponse.text(JSON.stringify({ code: row.code, msg: row.msg }), {
    ...jsonHeaders,
    status: row.status,
    ...(headers === undefined ? {} : { headers })
  })

/** A 200 with `body` as JSON. */
export const success = (body: unknown) => HttpServerResponse.text(JSON.stringify(body), { ...jsonHeaders, status: 200 })

// An answer written straight to a socket that Node hands over without a request (a request it
// cannot parse, a CONNECT): a `{code,msg}` body, then the connection is closed.
const rawAnswer = (row: ErrorBody.ErrorRow, reason: string, headers: string = "") => {
  const body = JSON.stringify({ code: row.code, msg: row.msg })
  return `HTTP/1.1 ${row.status} ${reason}\r\n${headers}Content-Type: application/json\r\nContent-Length: ${
    Buffer.byteLength(body)
  }\r\nConnection: close\r\n\r\n${body}`
}

/**
 * Every route answers GET (and HEAD, its body left out); any other method on a route's path gets
 * 405 with `Allow`, borrowing the HTTP status as its code as `WireFormat.notFound` does.
 */
export const allowedMethods = "GET, HEAD"

/** The 405 of a method other than GET and HEAD. */
export const methodNotAllowed = {
  status: 405,
  code: 405,
  msg: "Method not allowed: this endpoint answers GET."
} as const

/** The raw answer to a request Node cannot parse. */
export const malformedRequest: string = rawAnswer(
  ErrorBody.Errors.invalidParameter("malformed HTTP request"),
  "Bad Request"
)

/** The raw answer to a CONNECT: this service proxies nothing. */
export const connectRefused: string = rawAnswer(
  methodNotAllowed,
  "Method Not Allowed",
  `Allow: ${allowedMethods}\r\n`
)
