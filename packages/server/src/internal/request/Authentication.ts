/**
 * The checks of a signed request after its API key is known and within budget, in the order of
 * docs/wire-contract.md: `signature` and `timestamp` present, `recvWindow` in range, signature valid over the raw
 * query string, timestamp within the window, permission held. Pure: the clock reading is an input.
 *
 * @internal
 */
import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
import { Endpoint, ErrorBody, QueryString } from "@broker-history/domain"
import * as Either from "effect/Either"
import type { ApiKey } from "../../ApiKeys.js"
import * as ApiKeys from "../../ApiKeys.js"
import * as RawQuery from "./RawQuery.js"

/**
 * The query parameters that belong to signing rather than to the endpoint: they are removed from
 * `Verified.params`.
 */
export const signingParameters: ReadonlyArray<string> = ["timestamp", "recvWindow", "signature"]

/**
 * A request that passed every check: its business parameters in the order received, its timestamp and
 * the receive window that applied.
 */
export interface Verified {
  readonly params: ReadonlyArray<RawQuery.Param>
  readonly timestamp: number
  readonly recvWindow: number
}

const timestampText = /^(0|[1-9][0-9]{0,15})$/
const recvWindowText = /^[1-9][0-9]{0,4}$/

/**
 * Checks a request for `endpoint` signed with `key`, received as `rawQuery` at `now` (Unix ms), and
 * answers the first failed check as the service's error row. A repeated `timestamp` or `recvWindow`
 * is refused with 33333 (which one would apply is ambiguous); a `signature` that is repeated or not
 * last fails verification (700002).
 */
export const check = (request: {
  readonly rawQuery: string
  readonly key: ApiKey
  readonly endpoint: Endpoint.Endpoint
  readonly now: number
}): Either.Either<Verified, ErrorBody.ErrorRow> => {
  const params = RawQuery.parse(request.rawQuery)
  const named = (name: string) => params.filter((p) => p.name === name)

  const signatures = named("signature")
  if (signatures.length === 0 || signatures[0]!.rawValue === "") {
    return Either.left(ErrorBody.Errors.mandatoryParameter("signature"))
  }
  const timestamps = named("timestamp")
  if (timestamps.length === 0 || timestamps[0]!.rawValue === "") {
    return Either.left(ErrorBody.Errors.mandatoryParameter("timestamp"))
  }
  if (timestamps.length > 1) return Either.left(ErrorBody.Errors.invalidParameter("timestamp is repeated"))
  const timestampValue = timestamps[0]!.value
  if (timestampValue === undefined || !timestampText.test(timestampValue)) {
    return Either.left(ErrorBody.Errors.mandatoryParameter("timestamp"))
  }
  const timestamp = Number(timestampValue)
  if (!Number.isSafeInteger(timestamp)) return Either.left(ErrorBody.Errors.mandatoryParameter("timestamp"))

  const recvWindows = named("recvWindow")
  if (recvWindows.length > 1) return Either.left(ErrorBody.Errors.invalidParameter("recvWindow is repeated"))
  let recvWindow: number = Endpoint.recvWindow.default
  if (recvWindows.length === 1) {
    const text = recvWindows[0]!.value
    recvWindow = text !== undefined && recvWindowText.test(text) ? Number(text) : NaN
    if (!(recvWindow >= Endpoint.recvWindow.min && recvWindow <= Endpoint.recvWindow.max)) {
      return Either.left(ErrorBody.Errors.recvWindowOutOfRange)
    }
  }

  // The signature covers the query string exactly as received, so re-encoding can never make a
  // tampered request pass.
  const signed = QueryString.splitSignature(request.rawQuery)
  if (signed === undefined || !NodeSignature.verify(request.key.secretKey, signed.payload, signed.signature)) {
    return Either.left(ErrorBody.Errors.badSignature)
  }
  if (!(timestamp < request.now + 1000 && request.now - timestamp <= recvWindow)) {
    return Either.left(ErrorBody.Errors.timestampOutsideRecvWindow)
  }
  if (!ApiKeys.allows(request.key, request.endpoint.permission)) {
    return Either.left(ErrorBody.Errors.noPermission)
  }
  return Either.right({
    params: params.filter((p) => p.name === undefined || !signingParameters.includes(p.name)),
    timestamp,
    recvWindow
  })
}
