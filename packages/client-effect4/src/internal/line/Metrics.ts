/**
 * The request pipeline's metrics (public as `BrokerHttpClient.metrics`) in Effect 4's `Metric`, and
 * how the shared internal modules update them: the Effect 3 line's module of the same name has the
 * same exports (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Metric from "effect/Metric"
import * as Names from "../request/MetricNames.js"

const counter = (named: Names.Named) =>
  Metric.counter(named.name, { description: named.description, incremental: true })

/** Counters and the request-duration histogram of the request pipeline, tagged with `endpoint`. */
export const metrics = {
  requests: counter(Names.requests),
  retries: counter(Names.retries),
  rateLimitCurrent: Metric.gauge(Names.rateLimitCurrent.name, { description: Names.rateLimitCurrent.description }),
  rateLimitWaits: counter(Names.rateLimitWaits),
  rateLimited: counter(Names.rateLimited),
  requestDuration: Metric.histogram(Names.requestDuration.name, {
    boundaries: Names.requestDurationBoundaries,
    description: Names.requestDuration.description
  })
}

/** The metrics tagged per endpoint (the budget's gauge is the layer's, not an endpoint's). */
export type Counters = Omit<typeof metrics, "rateLimitCurrent">

/** A gauge of numbers. */
export type Gauge = Metric.Gauge<number>

const countersByEndpoint = new Map<string, Counters>()

/** The metrics of one endpoint, made once. */
export const countersFor = (endpoint: string): Counters => {
  let counters = countersByEndpoint.get(endpoint)
  if (counters === undefined) {
    const attributes = { endpoint }
    counters = {
      requests: Metric.withAttributes(metrics.requests, attributes),
      retries: Metric.withAttributes(metrics.retries, attributes),
      rateLimitWaits: Metric.withAttributes(metrics.rateLimitWaits, attributes),
      rateLimited: Metric.withAttributes(metrics.rateLimited, attributes),
      requestDuration: Metric.withAttributes(metrics.requestDuration, attributes)
    }
    countersByEndpoint.set(endpoint, counters)
  }
  return counters
}

/** One more of a counter. */
export const increment = (counter: Metric.Counter<number>) => Metric.update(counter, 1)

/** A gauge set to `value`. */
export const set = (gauge: Gauge, value: number) => Metric.update(gauge, value)

/** One sample of a histogram. */
export const sample = (histogram: Metric.Histogram<number>, value: number) => Metric.update(histogram, value)

/** Records received, tagged with `endpoint` (public as `BrokerHistory.recordsReceived`). */
export const recordsReceived = counter(Names.recordsReceived)

/** Crowded milliseconds a stream went on without (public as `BrokerHistory.incompleteMilliseconds`). */
export const incompleteMilliseconds = counter(Names.incompleteMilliseconds)

/** `recordsReceived` tagged with `endpoint`. */
export const receivedFor = (endpoint: string) => Metric.withAttributes(recordsReceived, { endpoint })

/** `incompleteMilliseconds` tagged with `endpoint`. */
export const incompleteFor = (endpoint: string) => Metric.withAttributes(incompleteMilliseconds, { endpoint })

/** `n` more of a counter. */
export const incrementBy = (counter: Metric.Counter<number>, n: number) => Metric.update(counter, n)
