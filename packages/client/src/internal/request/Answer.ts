/**
 * How an HTTP answer becomes a result or a typed error (docs/wire-contract.md, "Errors"): the
 * decisions are core's (`@broker-history/core/request/Answer`, failures as plain data); this decodes
 * bodies with the domain's schemas, turns core's failures into the tagged error classes, and runs an
 * attempt within its deadline.
 *
 * @internal
 */
import * as Core from "@broker-history/core/request/Answer"
import type { Endpoint } from "@broker-history/domain"
import { ErrorBody } from "@broker-history/domain"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { RequestContext } from "../../BrokerError.js"
import * as BrokerError from "../../BrokerError.js"
import { toError } from "../Failure.js"
import * as DecodeIssue from "./DecodeIssue.js"

/** A complete answer (see core's `Reply`). */
export type Reply = Core.Reply

/** A body's `Content-Length` as a number of bytes; `undefined` when absent or not a whole number. */
export const contentLength = Core.contentLength

const decodeErrorBody = Schema.decodeUnknownEither(ErrorBody.ErrorBody)

/**
 * The refusal a body states: a `{code,msg}` failure body, or an envelope (`{code, message, data}`, the
 * sub-account list's) whose code is not 0. `undefined` for any other body.
 */
const refusalBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  const body = decodeErrorBody(u)
  return Either.isRight(body) ? body.right : ErrorBody.fromEnvelope(u)
}

/**
 * What an answer says (core's `read`): the body decoded with `decode` (2xx), a `ResponseDecodeError`
 * when a 2xx body is not what was expected, or the refusal to classify with `refusal` (it needs the
 * time, for `Retry-After`).
 */
export const read = <A>(
  ctx: RequestContext,
  reply: Reply,
  decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
  attempts: number
): Either.Either<A, BrokerError.ResponseDecodeError | Core.Refused> => {
  const outcome = Core.read(
    ctx,
    reply,
    (json) =>
      Either.match(decode(json), {
        onRight: (value) => ({ _tag: "Decoded", value }),
        onLeft: (error) => ({ _tag: "Undecoded", describe: () => DecodeIssue.describe(error) })
      }),
    refusalBody,
    attempts
  )
  switch (outcome._tag) {
    case "Decoded":
      return Either.right(outcome.value)
    case "Refused":
      return Either.left(outcome)
    default:
      return Either.left(toError(outcome))
  }
}

/** A refusal as a typed error, by the error table (core's `refusal`). */
export const refusal = (
  ctx: RequestContext,
  answer: Core.Refused,
  reply: Reply,
  now: number,
  attempts: number,
  maxRetryAfterMillis: number
): BrokerError.BrokerError => toError(Core.refusal(ctx, answer, reply, now, attempts, maxRetryAfterMillis))

/** A body over `maxBytes` (`declared`: its `Content-Length`, when that is what showed it), not read. */
export const tooLarge = (
  ctx: RequestContext,
  status: number,
  maxBytes: number,
  declared: number | undefined,
  attempts: number
): BrokerError.ResponseDecodeError => toError(Core.tooLarge(ctx, status, maxBytes, declared, attempts))

/**
 * A transport failure (`cause` as thrown by the carrier) as a `TransportError`, with no URL (and so
 * no signature) in its description (core's `transportCause`).
 */
export const transportCause = (
  ctx: RequestContext,
  reason: "Body" | undefined,
  cause: unknown,
  attempts: number,
  fallback?: string,
  detail?: string
): BrokerError.TransportError => toError(Core.transportCause(ctx, reason, cause, attempts, fallback, detail))

/**
 * A platform transport failure as a `TransportError`, with no URL (and so no signature) in it: the
 * client's own description of it (an application's client may set one, e.g. for its own timeout),
 * then its cause.
 */
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
    `${error._tag} ${error.reason}`,
    error.description
  )

/** The request context of an endpoint call. */
export const endpointContext = (endpoint: Endpoint.Endpoint, params: ReadonlyArray<readonly [string, string]>) =>
  Core.requestContext(endpoint.name, params)

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
