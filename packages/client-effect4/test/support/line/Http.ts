/**
 * The platform HTTP modules the shared test support uses (`MockService`), as Effect 4 has them
 * (`effect/http`): the Effect 3 client's module of the same name has the same exports over
 * `@effect/platform` (docs/architecture.md, "One source, two lines").
 */
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"

export * as HttpClient from "effect/http/HttpClient"
export type { HttpClientRequest } from "effect/http/HttpClientRequest"
export * as HttpClientResponse from "effect/http/HttpClientResponse"

/** A request's headers, as a record of its own (Effect 4's are not a plain record). */
export const headersOf = (request: HttpClientRequest.HttpClientRequest): Readonly<Record<string, string>> => ({
  ...request.headers
})

/** The platform's failure of `request` to reach the service (a dropped connection, say). */
export const transportFailure = (request: HttpClientRequest.HttpClientRequest, cause: unknown) =>
  new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) })
