/**
 * The request pipeline's metrics (public as `BrokerHttpClient.metrics`) in Effect 3's `Metric`, and
 * how the shared internal modules update them: the Effect 4 line's module of the same name has the
 * same exports (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
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
  requestDuration: Metric.histogram(
    Names.requestDuration.name,
    MetricBoundaries.fromIterable(Names.requestDurationBoundaries),
    Names.requestDuration.description
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

/**
 * `metric` updated with `input` under the fiber's metric labels, as `Metric.update` does, in one step
 * of the fiber instead of four: the pipeline updates several metrics on every request.
 */
const update = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, input: In): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    metric.unsafeUpdate(input, fiber.getFiberRef(FiberRef.currentMetricLabels))
    return Effect.void
  })

/** One more of a counter. */
export const increment = (counter: Metric.Metric.Counter<number>) => update(counter, 1)

/** A gauge set to `value`. */
export const set = (gauge: Gauge, value: number) => update(gauge, value)

/** One sample of a histogram. */
export const sample = (histogram: Metric.Metric.Histogram<number>, value: number) => update(histogram, value)

/** Records received, tagged with `endpoint` (public as `BrokerHistory.recordsReceived`). */
export const recordsReceived = counter(Names.recordsReceived)

/** Crowded milliseconds a stream went on without (public as `BrokerHistory.incompleteMilliseconds`). */
export const incompleteMilliseconds = counter(Names.incompleteMilliseconds)

/** `recordsReceived` tagged with `endpoint`. */
export const receivedFor = (endpoint: string) => Metric.tagged(recordsReceived, "endpoint", endpoint)

/** `incompleteMilliseconds` tagged with `endpoint`. */
export const incompleteFor = (endpoint: string) => Metric.tagged(incompleteMilliseconds, "endpoint", endpoint)

/** `n` more of a counter. */
export const incrementBy = (counter: Metric.Metric.Counter<number>, n: number) => update(counter, n)
