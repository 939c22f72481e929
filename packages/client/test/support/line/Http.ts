/**
 * The platform HTTP modules the shared test support uses (`MockService`), as Effect 3 has them
 * (`@effect/platform`): the Effect 4 client's module of the same name has the same exports over
 * `effect/http` (docs/architecture.md, "One source, two lines").
 */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"

export * as HttpClient from "@effect/platform/HttpClient"
export type { HttpClientRequest } from "@effect/platform/HttpClientRequest"
export * as HttpClientResponse from "@effect/platform/HttpClientResponse"

/** A request's headers, as a record of its own. */
export const headersOf = (request: HttpClientRequest.HttpClientRequest): Readonly<Record<string, string>> =>
  request.headers

/** The platform's failure of `request` to reach the service (a dropped connection, say). */
export const transportFailure = (request: HttpClientRequest.HttpClientRequest, cause: unknown) =>
  new HttpClientError.RequestError({ request, reason: "Transport", cause })
