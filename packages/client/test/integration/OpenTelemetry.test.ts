// The client's spans and metrics through the OpenTelemetry SDK (`@effect/opentelemetry` NodeSdk, in-memory
// exporters), over a real transfers stream against the reference service on 127.0.0.1. A recording
// forwarder in front of the service sees every request as sent (signature included) and injects one
// 429, so a retry shows in the spans and the counters.
import { BrokerConfig, BrokerHistory, BrokerHttpClient } from "@broker-history/client"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { describe, expect, it } from "@effect/vitest"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader
} from "@opentelemetry/sdk-metrics"
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Metric, Redacted, Stream } from "effect"
import * as Http from "node:http"

const END = Date.UTC(2026, 0, 1)
const day = 86_400_000
const path = "/api/v3/broker/sub-account/universalTransfer"
const query = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  since: END - 400 * day,
  until: END,
  limit: 50,
  concurrency: 2
} as const

/**
 * An HTTP forwarder on 127.0.0.1 to `target`, recording each request's URL. On the first transfer
 * request it switches the service's 429 fault on for that one request.
 */
const forwarder = (server: ReferenceServer.Service) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly seen: Array<string>; readonly http: Http.Server }>((resume) => {
      const seen: Array<string> = []
      const http = Http.createServer((request, response) => {
        const url = request.url ?? ""
        seen.push(url)
        const inject = url.startsWith(path) && seen.filter((u) => u.startsWith(path)).length === 1
        if (inject) Effect.runSync(server.setFaults({ rateLimited: 1 }))
        const upstream = Http.request(server.baseUrl + url, { headers: request.headers }, (answer) => {
          if (inject) Effect.runSync(server.setFaults({}))
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        })
        upstream.on("error", () => response.destroy())
        request.pipe(upstream)
      })
      http.listen(0, "127.0.0.1", () => {
        const address = http.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, seen, http }))
      })
    }),
    ({ http }) =>
      Effect.async<void>((resume) => {
        http.closeAllConnections()
        http.close(() => resume(Effect.void))
      })
  )

/** The value of counter `name` for the transfer endpoint in the last export (0 when absent). */
const sumOf = (exported: ReadonlyArray<ResourceMetrics>, name: string): number => {
  const last = exported.at(-1)
  for (const scope of last?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name || metric.dataPointType !== DataPointType.SUM) continue
      const point = metric.dataPoints.find((p) => p.attributes.endpoint === "transferHistory")
      return point === undefined ? 0 : Number(point.value)
    }
  }
  return 0
}

const histogramOf = (exported: ReadonlyArray<ResourceMetrics>, name: string) => {
  for (const scope of exported.at(-1)?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name || metric.dataPointType !== DataPointType.HISTOGRAM) continue
      return metric.dataPoints.find((p) => p.attributes.endpoint === "transferHistory")?.value
    }
  }
  return undefined
}

/** Effect's metric registry is the process's: the values before the run, to compare differences. */
const counterNow = (counter: Metric.Metric.Counter<number>) =>
  Effect.map(Metric.value(Metric.tagged(counter, "endpoint", "transferHistory")), (s) => s.count)

describe("OpenTelemetry", () => {
  it.live(
    "a transfers stream: request spans with attempt children, attributes, metrics, no secrets",
    () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const front = yield* forwarder(server)
        const spans = new InMemorySpanExporter()
        const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
        const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 })
        const Telemetry = NodeSdk.layer(() => ({
          resource: { serviceName: "broker-history-test" },
          spanProcessor: new SimpleSpanProcessor(spans),
          metricReader: reader
        }))
        const HistoryLive = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
          baseUrl: front.url,
          apiKey: Redacted.make(ApiKeys.demo.apiKey),
          secretKey: Redacted.make(ApiKeys.demo.secretKey),
          rateLimit: { limit: 5000, interval: "1 second" },
          retry: { maxRetries: 3, baseDelay: "5 millis", maxDelay: "50 millis" },
          maxWindow: { transfers: "60 days" }
        })))

        const m = BrokerHttpClient.metrics
        const before = {
          requests: yield* counterNow(m.requests),
          retries: yield* counterNow(m.retries),
          rateLimited: yield* counterNow(m.rateLimited),
          records: yield* counterNow(BrokerHistory.recordsReceived),
          durations: (yield* Metric.value(Metric.tagged(m.requestDuration, "endpoint", "transferHistory"))).count
        }
        // Read before the SDK shuts down (the in-memory span exporter forgets its spans then).
        const { exported, finished, received } = yield* Effect.gen(function*() {
          const history = yield* BrokerHistory.BrokerHistory
          const received = yield* Stream.runCount(history.transfers(query))
          yield* Effect.promise(() => reader.forceFlush())
          return { received, finished: spans.getFinishedSpans(), exported: metrics.getMetrics() }
        }).pipe(Effect.provide(Layer.merge(HistoryLive, Telemetry)))

        // What the service was sent: every attempt of the transfer endpoint, one 429 among them.
        const sent = front.seen.filter((url) => url.startsWith(path))
        const stats = yield* server.stats
        expect(received).toBeGreaterThan(query.limit)
        expect(stats.faults).toEqual({ rateLimited: 1 })
        expect(sent.length).toBeGreaterThan(2)

        // The span tree: one request span per page, each with its attempts as children.
        const requests = finished.filter((s) => s.name === "BrokerHttpClient.get transferHistory")
        const attempts = finished.filter((s) => s.name === "BrokerHttpClient.attempt")
        expect(attempts.length).toBe(sent.length)
        expect(requests.length).toBe(sent.length - 1)
        for (const request of requests) {
          const children: ReadonlyArray<ReadableSpan> = attempts.filter((a) =>
            a.parentSpanContext?.spanId === request.spanContext().spanId
          )
          expect(children.length).toBeGreaterThanOrEqual(1)
          expect(children.every((a) => a.spanContext().traceId === request.spanContext().traceId)).toBe(true)
          expect(children.at(-1)!.attributes["http.response.status_code"]).toBe(200)
          const a = request.attributes
          expect(a["broker.endpoint"]).toBe("transferHistory")
          expect(a["url.path"]).toBe(path)
          expect(a["broker.limit"]).toBe(query.limit)
          expect(a["broker.page"]).toBeGreaterThanOrEqual(1)
          expect(a["broker.window.start"]).toBeGreaterThanOrEqual(query.since)
          expect(a["broker.window.end"]).toBeLessThanOrEqual(query.until)
          expect(a["broker.window.start"]).toBeLessThanOrEqual(a["broker.window.end"] as number)
          expect(a["broker.records"]).toBeLessThanOrEqual(query.limit)
        }
        expect(attempts.every((a) => requests.some((r) => r.spanContext().spanId === a.parentSpanContext?.spanId)))
          .toBe(true)
        expect(requests.reduce((n, r) => n + (r.attributes["broker.records"] as number), 0)).toBe(received)
        // The one retried attempt: answered 429, its reason recorded; no other attempt has a reason.
        const retried = attempts.filter((a) => a.attributes["broker.retry.reason"] !== undefined)
        expect(retried.map((a) => [a.attributes["broker.retry.reason"], a.attributes["http.response.status_code"]]))
          .toEqual([["RateLimited", 429]])
        expect(attempts.filter((a) => a.attributes["http.response.status_code"] === 200).length).toBe(requests.length)

        // The metrics, as exported: differences over the run.
        expect(sumOf(exported, "broker_history_requests_total") - before.requests).toBe(sent.length)
        expect(sumOf(exported, "broker_history_records_total") - before.records).toBe(received)
        expect(sumOf(exported, "broker_history_retries_total") - before.retries).toBe(1)
        expect(sumOf(exported, "broker_history_rate_limited_total") - before.rateLimited).toBe(1)
        const duration = histogramOf(exported, "broker_history_request_duration_seconds")
        expect(duration!.count - before.durations).toBe(sent.length)
        expect(duration?.buckets.boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30])
        expect(duration?.buckets.counts.reduce((x, y) => x + y, 0)).toBe(duration?.count)

        // No key, secret, signature or signed query string anywhere in what was exported.
        const signed = sent.map((url) => url.slice(url.indexOf("?") + 1))
        const signatures = signed.map((q) => new URLSearchParams(q).get("signature") ?? "")
        expect(signatures.every((s) => /^[0-9a-f]{64}$/.test(s))).toBe(true)
        const text = JSON.stringify({
          spans: finished.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
          metrics: exported
        })
        for (const secret of [ApiKeys.demo.apiKey, ApiKeys.demo.secretKey, ...signatures, ...signed]) {
          expect(text.includes(secret)).toBe(false)
        }
        expect(text).not.toMatch(/signature|timestamp=/)
      }).pipe(
        Effect.scoped,
        Effect.provide(ReferenceServer.layer({
          seed: { seed: 7, transfers: 2000, deposits: 0, end: END },
          rateLimit: { limit: 100_000, window: "1 second" }
        }))
      ),
    60_000
  )
})
