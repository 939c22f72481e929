/**
 * When each request arrived: stamped on Node's "request" event, before the handler's fiber and its
 * key lookup have begun, so that the checks made as of the arrival do not move with that work.
 *
 * @internal
 */
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as Http from "node:http"

/** A request's arrival: wall-clock milliseconds, and `performance.now()` for durations. */
export interface Arrival {
  readonly at: number
  readonly clock: number
}

/** Arrivals, by request. */
export interface Arrivals {
  /** Stamps a request as it arrives now. */
  readonly record: (incoming: Http.IncomingMessage) => void
  /** The request's arrival; now when it was not stamped. */
  readonly of: (request: HttpServerRequest.HttpServerRequest) => Arrival
}

/** An empty record of arrivals. */
export const make = (): Arrivals => {
  const arrivals = new WeakMap<Http.IncomingMessage, Arrival>()
  return {
    record: (incoming) => {
      arrivals.set(incoming, { at: Date.now(), clock: performance.now() })
    },
    of: (request) =>
      arrivals.get(NodeHttpServerRequest.toIncomingMessage(request)) ?? { at: Date.now(), clock: performance.now() }
  }
}
