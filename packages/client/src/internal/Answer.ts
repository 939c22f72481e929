/**
 * How an HTTP answer becomes a result or a typed error (docs/wire-contract.md, "Errors").
 *
 * @internal
 */
import type { Endpoint } from "@broker-history/domain"
import { ErrorBody } from "@broker-history/domain"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { RequestContext } from "../BrokerError.js"
import * as BrokerError from "../BrokerError.js"
import * as JsonBody from "./JsonBody.js"

/** The request context of a query: endpoint, plus window and page when the query has them. */
export const requestContext = (
  endpoint: string,
  params: ReadonlyArray<readonly [string, string]>
): RequestContext => {
  const ctx: { endpoint: string; startTime?: number; endTime?: number; page?: number } = { endpoint }
  for (const [name, value] of params) {
    if (name === "startTime") ctx.startTime = Number(value)
    else if (name === "endTime") ctx.endTime = Number(value)
    else if (name === "page") ctx.page = Number(value)
  }
  return ctx
}

const decodeErrorBody = Schema.decodeUnknownEither(ErrorBody.ErrorBody)

const parseJson = (body: JsonBody.Body): Either.Either<unknown, string> => {
  try {
    return Either.right(JsonBody.parse(body))
  } catch (e) {
    return Either.left(e instanceof Error ? e.message : "not JSON")
  }
}

const excerpt = (body: JsonBody.Body): string => {
  const text = typeof body === "string" ? body : JsonBody.text(body.length <= 1024 ? body : body.subarray(0, 1024))
  return text.length <= 200 ? text : text.slice(0, 200) + "…"
}

/** Retry-After in ms from delta-seconds or an HTTP date; `undefined` when absent or unreadable. */
export const retryAfterMillis = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000))
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * A non-2xx answer as a typed error. The body is read as `{code,msg}` when it is one.
 */
export const refusal = (
  ctx: RequestContext,
  status: number,
  body: JsonBody.Body,
  retryAfter: number | undefined,
  attempts: number
): BrokerError.BrokerError => {
  const error = Either.flatMap(
    Either.mapLeft(parseJson(body), () => undefined),
    (json) => Either.mapLeft(decodeErrorBody(json), () => undefined)
  )
  const code = Either.isRight(error) ? error.right.code : undefined
  const msg = Either.isRight(error) ? error.right.msg : excerpt(body)
  if (status === 429 || status === 418 || code === ErrorBody.Code.TooManyRequests && status >= 400 && status < 500) {
    return new BrokerError.RateLimited({
      request: ctx,
      status,
      code: code ?? status,
      msg,
      retryAfterMillis: retryAfter ?? 0,
      attempts
    })
  }
  if (status >= 500) {
    return new BrokerError.ServerError({
      request: ctx,
      status,
      ...(code === undefined ? {} : { code }),
      msg,
      attempts
    })
  }
  if (status === 408) {
    return new BrokerError.TransportError({
      request: ctx,
      reason: "Timeout",
      description: "the service answered 408 Request Timeout",
      attempts
    })
  }
  switch (code) {
    case ErrorBody.Code.InvalidApiKey:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "ApiKey" })
    case ErrorBody.Code.BadSignature:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "Signature" })
    case ErrorBody.Code.NoPermission:
      return new BrokerError.AuthenticationError({ request: ctx, status, code, msg, reason: "Permission" })
    case ErrorBody.Code.TimestampOutsideRecvWindow:
      return new BrokerError.TimestampRejected({ request: ctx, status, code, msg })
    case undefined:
      if (status === 401 || status === 403) {
        return new BrokerError.AuthenticationError({
          request: ctx,
          status,
          code: status,
          msg,
          reason: status === 401 ? "ApiKey" : "Permission"
        })
      }
      return new BrokerError.ApiError({ request: ctx, status, code: status, msg })
    default:
      return new BrokerError.ApiError({ request: ctx, status, code, msg })
  }
}

/** A 2xx body decoded with `decode`, or a `ResponseDecodeError`. */
export const decodeBody = <A>(
  ctx: RequestContext,
  status: number,
  body: JsonBody.Body,
  decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
  attempts: number
): Either.Either<A, BrokerError.ResponseDecodeError> => {
  const json = parseJson(body)
  if (Either.isLeft(json)) {
    return Either.left(
      new BrokerError.ResponseDecodeError({
        request: ctx,
        status,
        reason: "InvalidJson",
        description: json.left,
        excerpt: excerpt(body),
        attempts
      })
    )
  }
  return Either.mapLeft(decode(json.right), (error) =>
    new BrokerError.ResponseDecodeError({
      request: ctx,
      status,
      reason: "UnexpectedShape",
      description: firstIssue(error),
      excerpt: excerpt(body),
      attempts
    }))
}

const firstIssue = (error: ParseResult.ParseError): string => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (issue === undefined) return "unexpected shape"
  const path = issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("")
  return `${path === "" ? "body" : path}: ${issue.message}`
}

// Platform errors name the request URL, which carries the signature: keep only the cause's text.
const scrub = (text: string): string => text.replace(/\?[^\s)"']*/g, "?…")

/**
 * A transport failure (`cause` as thrown by the carrier) as a `TransportError`, with no URL (and so
 * no signature) in its description. `reason` is detected from the cause unless given.
 */
export const transportCause = (
  ctx: RequestContext,
  reason: "Body" | undefined,
  cause: unknown,
  attempts: number,
  fallback = "the exchange failed"
): BrokerError.TransportError => {
  const causeText = cause instanceof Error
    ? [cause.message, (cause as { code?: unknown }).code, describeCause(cause.cause)].filter(Boolean).join(": ")
    : ""
  return new BrokerError.TransportError({
    request: ctx,
    reason: reason ?? (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connect/i.test(causeText) ? "Connect" : "Other"),
    description: scrub(causeText === "" ? fallback : causeText),
    attempts
  })
}

/** A platform transport failure as a `TransportError`, with no URL (and so no signature) in it. */
export const transportFailure = (
  ctx: RequestContext,
  error: HttpClientError.HttpClientError,
  attempts: number
): BrokerError.TransportError =>
  transportCause(
    ctx,
    error._tag === "ResponseError" ? "Body" : undefined,
    error.cause,
    attempts,
    `${error._tag} ${error.reason}`
  )

const describeCause = (cause: unknown): string =>
  cause instanceof Error ? [cause.message, (cause as { code?: unknown }).code].filter(Boolean).join(" ") : ""

/** The request context of an endpoint call. */
export const endpointContext = (endpoint: Endpoint.Endpoint, params: ReadonlyArray<readonly [string, string]>) =>
  requestContext(endpoint.name, params)

/**
 * One attempt's exchange with the platform's failures as `TransportError`s and a deadline: the
 * request, the answer and its body must all complete within `timeout`.
 */
export const withinDeadline = <A, E, R>(
  exchange: Effect.Effect<A, E | HttpClientError.HttpClientError, R>,
  ctx: RequestContext,
  attempt: number,
  timeout: Duration.Duration
): Effect.Effect<A, Exclude<E, HttpClientError.HttpClientError> | BrokerError.TransportError, R> =>
  exchange.pipe(
    Effect.mapError((e) =>
      HttpClientError.isHttpClientError(e)
        ? transportFailure(ctx, e, attempt)
        : e as Exclude<E, HttpClientError.HttpClientError>
    ),
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () =>
        new BrokerError.TransportError({
          request: ctx,
          reason: "Timeout",
          description: `no complete answer within ${Duration.format(timeout)}`,
          attempts: attempt
        })
    })
  )
