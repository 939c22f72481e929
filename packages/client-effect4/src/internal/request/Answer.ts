/**
 * How an HTTP answer becomes a result or a typed error (docs/wire-contract.md, "Errors"): the
 * decisions are core's (`@broker-history/core/request/Answer`, failures as plain data); this decodes
 * bodies with the domain's schemas, turns core's failures into the tagged error classes, and runs an
 * attempt within its deadline.
 *
 * @internal
 */
import * as Core from "@broker-history/core/request/Answer"
import type { Endpoint } from "@broker-history/domain-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClientError from "effect/http/HttpClientError"
import * as Result from "effect/Result"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type { RequestContext } from "../../BrokerError.js"
import * as BrokerError from "../../BrokerError.js"
import { toError } from "../Failure.js"
import * as DecodeIssue from "./DecodeIssue.js"

/** A decoder of a body's JSON value: the value, or the first issue of what is wrong with it. */
export type Decode<A> = (u: unknown) => Result.Result<A, SchemaIssue.Issue>

/** A complete answer (see core's `Reply`). */
export type Reply = Core.Reply

/** A body's `Content-Length` as a number of bytes; `undefined` when absent or not a whole number. */
export const contentLength = Core.contentLength

const decodeErrorBody = SchemaParser.decodeUnknownResult(ErrorBody.ErrorBody)

/**
 * The refusal a body states: a `{code,msg}` failure body, or an envelope (`{code, message, data}`, the
 * sub-account list's) whose code is not 0. `undefined` for any other body.
 */
const refusalBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  const body = decodeErrorBody(u)
  return Result.isSuccess(body) ? body.success : ErrorBody.fromEnvelope(u)
}

/**
 * What an answer says (core's `read`): the body decoded with `decode` (2xx), a `ResponseDecodeError`
 * when a 2xx body is not what was expected, or the refusal to classify with `refusal` (it needs the
 * time, for `Retry-After`).
 */
export const read = <A>(
  ctx: RequestContext,
  reply: Reply,
  decode: Decode<A>,
  attempts: number
): Result.Result<A, BrokerError.ResponseDecodeError | Core.Refused> => {
  const outcome = Core.read(
    ctx,
    reply,
    (json) =>
      Result.match(decode(json), {
        onSuccess: (value) => ({ _tag: "Decoded", value }),
        onFailure: (issue) => ({ _tag: "Undecoded", describe: () => DecodeIssue.describe(issue, json) })
      }),
    refusalBody,
    attempts
  )
  switch (outcome._tag) {
    case "Decoded":
      return Result.succeed(outcome.value)
    case "Refused":
      return Result.fail(outcome)
    default:
      return Result.fail(toError(outcome))
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
): BrokerError.TransportError => {
  const reason = error.reason
  return transportCause(
    ctx,
    "response" in reason ? "Body" : undefined,
    reason.cause,
    attempts,
    reason._tag,
    reason.description
  )
}

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
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () =>
        Effect.fail(
          new BrokerError.TransportError({
            request: ctx,
            reason: "Timeout",
            description: `no complete answer within ${Duration.format(timeout)}`,
            attempts: attempt
          })
        )
    })
  )
