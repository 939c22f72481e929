/**
 * The request pipeline's metrics (public as `BrokerHttpClient.metrics`) in Effect 3's `Metric`, and
 * how the shared internal modules update them: the Effect 4 line's module of the same name has the
 * same exports (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/** Counters and the request-duration histogram of the request pipeline, tagged with `endpoint`. */
export const metrics = {
  /** Every attempt sent. */
  requests: Metric.counter("broker_history_requests_total", { description: "HTTP attempts sent", incremental: true }),
  /** Attempts that were retried (the failed attempt is counted). */
  retries: Metric.counter("broker_history_retries_total", { description: "attempts retried", incremental: true }),
  /** Requests per second the shared budget allows now (not tagged: one budget serves every endpoint). */
  rateLimitCurrent: Metric.gauge("broker_history_rate_limit_current", {
    description: "requests per second the client's budget allows now (lowered after 429/418, grows back)"
  }),
  /** Attempts that had to wait for the client's rate limiter. */
  rateLimitWaits: Metric.counter("broker_history_rate_limit_waits_total", {
    description: "attempts delayed by the client rate limiter",
    incremental: true
  }),
  /** 429/418 answers received. */
  rateLimited: Metric.counter("broker_history_rate_limited_total", {
    description: "429/418 answers received",
    incremental: true
  }),
  /** Seconds from sending an attempt to its whole answer, or to its failure (one sample per attempt). */
  requestDuration: Metric.histogram(
    "broker_history_request_duration_seconds",
    MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
    "seconds from sending an attempt to its whole answer or its failure"
  )
}

/** The metrics tagged per endpoint (the budget's gauge is the layer's, not an endpoint's). */
export type Counters = Omit<typeof metrics, "rateLimitCurrent">

/** A gauge of numbers. */
export type Gauge = Metric.Metric.Gauge<number>

const countersByEndpoint = new Map<string, Counters>()

/** The metrics of one endpoint, made once. */
export const countersFor = (endpoint: string): Counters => {
  let counters = countersByEndpoint.get(endpoint)
  if (counters === undefined) {
    counters = {
      requests: Metric.tagged(metrics.requests, "endpoint", endpoint),
      retries: Metric.tagged(metrics.retries, "endpoint", endpoint),
      rateLimitWaits: Metric.tagged(metrics.rateLimitWaits, "endpoint", endpoint),
      rateLimited: Metric.tagged(metrics.rateLimited, "endpoint", endpoint),
      requestDuration: Metric.tagged(metrics.requestDuration, "endpoint", endpoint)
    }
    countersByEndpoint.set(endpoint, counters)
  }
  return counters
}

/** One more of a counter. */
export const increment = (counter: Metric.Metric.Counter<number>) => Metric.increment(counter)

/** A gauge set to `value`. */
export const set = (gauge: Gauge, value: number) => Metric.set(gauge, value)

/** One sample of a histogram. */
export const sample = (histogram: Metric.Metric.Histogram<number>, value: number) => Metric.update(histogram, value)

/** Records received, tagged with `endpoint` (public as `BrokerHistory.recordsReceived`). */
export const recordsReceived = Metric.counter("broker_history_records_total", {
  description: "records received",
  incremental: true
})

/** Crowded milliseconds a stream went on without (public as `BrokerHistory.incompleteMilliseconds`). */
export const incompleteMilliseconds = Metric.counter("broker_history_incomplete_total", {
  description: "crowded milliseconds a stream went on without all their records",
  incremental: true
})

/** `recordsReceived` tagged with `endpoint`. */
export const receivedFor = (endpoint: string) => Metric.tagged(recordsReceived, "endpoint", endpoint)

/** `incompleteMilliseconds` tagged with `endpoint`. */
export const incompleteFor = (endpoint: string) => Metric.tagged(incompleteMilliseconds, "endpoint", endpoint)

/** `n` more of a counter. */
export const incrementBy = (counter: Metric.Metric.Counter<number>, n: number) => Metric.incrementBy(counter, n)
