// A transfers stream with its spans and metrics exported to an OpenTelemetry collector over OTLP/HTTP
// (spans, attributes and metric names: docs/operations.md). Against the bundled reference service:
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
//   BROKER_BASE_URL=http://127.0.0.1:8080 BROKER_API_KEY=… BROKER_SECRET_KEY=… npx tsx examples/src/openTelemetry.ts
import { BrokerHistory } from "@broker-history/client"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Config, Console, Effect, Layer, Stream } from "effect"

// The collector's base URL; the exporters add /v1/traces and /v1/metrics.
const endpoint = Config.string("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(Config.withDefault("http://127.0.0.1:4318"))

// Spans in batches; metrics every 10 s and once more when the layer closes, as the spans are flushed.
const TelemetryLive = NodeSdk.layer(Effect.map(endpoint, (url) => ({
  resource: { serviceName: "broker-history-example" },
  spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter({ url: `${url}/v1/traces` })),
  metricReader: new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: `${url}/v1/metrics` }),
    exportIntervalMillis: 10_000
  })
})))

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const count = yield* history.transfers({
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    since: "2025-01-01T00:00:00Z"
  }).pipe(Stream.runCount)
  yield* Console.log(`${count} transfers; spans and metrics exported`)
}).pipe(
  // A root span for the run: each page's `BrokerHttpClient.get transferHistory` span is its child.
  Effect.withSpan("export transfers")
)

program.pipe(Effect.provide(Layer.merge(BrokerHistory.layerConfig(), TelemetryLive)), Effect.runPromise)
