/**
 * The client's metrics: their names and descriptions, as both lines' `line/Metrics.ts` make them
 * (`BrokerHttpClient.metrics`, `BrokerHistory.recordsReceived`, `BrokerHistory.incompleteMilliseconds`).
 *
 * @internal
 */

/** A metric's name and description. */
export interface Named {
  readonly name: string
  readonly description: string
}

/** Every attempt sent. */
export const requests: Named = { name: "broker_history_requests_total", description: "HTTP attempts sent" }

/** Attempts that were retried (the failed attempt is counted). */
export const retries: Named = { name: "broker_history_retries_total", description: "attempts retried" }

/** Requests per second the shared budget allows now (not tagged: one budget serves every endpoint). */
export const rateLimitCurrent: Named = {
  name: "broker_history_rate_limit_current",
  description: "requests per second the client's budget allows now (lowered after 429/418, grows back)"
}

/** Attempts that had to wait for the client's rate limiter. */
export const rateLimitWaits: Named = {
  name: "broker_history_rate_limit_waits_total",
  description: "attempts delayed by the client rate limiter"
}

/** 429/418 answers received. */
export const rateLimited: Named = { name: "broker_history_rate_limited_total", description: "429/418 answers received" }

/** Seconds from sending an attempt to its whole answer, or to its failure (one sample per attempt that completes). */
export const requestDuration: Named = {
  name: "broker_history_request_duration_seconds",
  description: "seconds from sending an attempt to its whole answer or its failure"
}

/** The request-duration histogram's bucket boundaries, in seconds. */
export const requestDurationBoundaries: ReadonlyArray<number> = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30
]

/** Records received, tagged with `endpoint`. */
export const recordsReceived: Named = { name: "broker_history_records_total", description: "records received" }

/** Crowded milliseconds a stream went on without all their records (`onIncomplete: "warn"`). */
export const incompleteMilliseconds: Named = {
  name: "broker_history_incomplete_total",
  description: "crowded milliseconds a stream went on without all their records"
}
