/**
 * How an HTTP answer becomes a result or a typed error (docs/wire-contract.md, "Errors"): the
 * decisions are core's (`@broker-history/core/request/Answer`, failures as plain data); this decodes
 * bodies with the line's schemas (`line/Decoding.ts`) and turns core's failures into the tagged error
 * classes.
 *
 * @internal
 */
import * as Core from "@broker-history/core/request/Answer"
import type { RequestContext } from "../../BrokerError.js"
import type * as BrokerError from "../../BrokerError.js"
import { toError } from "../Failure.js"
import * as Decoding from "../line/Decoding.js"
import type { Endpoint } from "../line/Domain.js"
import { ErrorBody } from "../line/Domain.js"
import * as Results from "../line/Results.js"

/** A complete answer (see core's `Reply`). */
export type Reply = Core.Reply

/** A body's `Content-Length` as a number of bytes; `undefined` when absent or not a whole number. */
export const contentLength = Core.contentLength

/**
 * The refusal a body states: a `{code,msg}` failure body, or an envelope (`{code, message, data}`, the
 * sub-account list's) whose code is not 0. `undefined` for any other body.
 */
const refusalBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  return Decoding.decodeErrorBody(u) ?? ErrorBody.fromEnvelope(u)
}

/**
 * What an answer says (core's `read`): the body decoded with `decode` (2xx), a `ResponseDecodeError`
 * when a 2xx body is not what was expected, or the refusal to classify with `refusal` (it needs the
 * time, for `Retry-After`).
 */
export const read = <A>(
  ctx: RequestContext,
  reply: Reply,
  decode: Decoding.Decode<A>,
  attempts: number
): Results.Result<A, BrokerError.ResponseDecodeError | Core.Refused> => {
  const outcome = Core.read(
    ctx,
    reply,
    (json) =>
      Results.match(decode(json), {
        onSuccess: (value) => ({ _tag: "Decoded", value }),
        onFailure: (issue) => ({ _tag: "Undecoded", describe: () => Decoding.describe(issue, json) })
      }),
    refusalBody,
    attempts
  )
  switch (outcome._tag) {
    case "Decoded":
      return Results.succeed(outcome.value)
    case "Refused":
      return Results.fail(outcome)
    default:
      return Results.fail(toError(outcome))
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

/** The request context of an endpoint call. */
export const endpointContext = (endpoint: Endpoint.Endpoint, params: ReadonlyArray<readonly [string, string]>) =>
  Core.requestContext(endpoint.name, params)
