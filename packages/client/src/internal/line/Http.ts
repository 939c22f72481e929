/**
 * The platform HTTP client of this line (`@effect/platform`) as the shared carrier over it
 * (`request/Exchange.ts`) uses it: one GET sent, its failures recognised and described. The Effect 4
 * line's module of the same name has the same exports over `effect/http` (docs/architecture.md, "One
 * source, two lines").
 *
 * @internal
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { RequestContext } from "../../BrokerError.js"
import type * as BrokerError from "../../BrokerError.js"
import * as Answer from "../request/Answer.js"

/** The platform's client, response and failure. */
export type Client = HttpClient.HttpClient
export type Response = HttpClientResponse.HttpClientResponse
export type Failure = HttpClientError.HttpClientError

export const isFailure: (u: unknown) => u is Failure = HttpClientError.isHttpClientError

/**
 * GETs over `http`, each response alive until its scope closes. The platform's client span is off (it
 * would record the signed URL, and ending it renders the response, which reads its body), and so is
 * trace propagation; anything that renders the request headers (platform logs) shows `apiKeyHeader`
 * redacted. A status the client refuses (`HttpClient.filterStatusOk`) still hands over its response.
 */
export const sender = (http: Client, apiKeyHeader: string) => {
  const scoped = http.pipe(
    HttpClient.withTracerDisabledWhen(() => true),
    HttpClient.withTracerPropagation(false),
    HttpClient.withScope
  )
  const redactKeyHeader = (names: ReadonlyArray<string | RegExp>) =>
    names.includes(apiKeyHeader) ? names : [...names, apiKeyHeader]
  return (url: string, headers: Record<string, string>): Effect.Effect<Response, Failure, Scope.Scope> =>
    scoped.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders(headers))).pipe(
      Effect.catchIf(
        (error): error is HttpClientError.ResponseError =>
          error._tag === "ResponseError" && error.reason === "StatusCode",
        (error) => Effect.succeed(error.response)
      ),
      Effect.locallyWith(Headers.currentRedactedNames, redactKeyHeader)
    )
}

/**
 * A platform failure as a `TransportError`, with no URL (and so no signature) in it: the client's own
 * description of it (an application's client may set one, e.g. for its own timeout), then its cause.
 */
export const transportFailure = (ctx: RequestContext, error: Failure, attempts: number): BrokerError.TransportError =>
  Answer.transportCause(
    ctx,
    error._tag === "ResponseError" ? "Body" : undefined,
    error.cause,
    attempts,
    `${error._tag} ${error.reason}`,
    error.description
  )
