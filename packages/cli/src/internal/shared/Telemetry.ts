/**
 * OpenTelemetry export for the commands that talk to the service (`transfers`, `deposits`, `sync`):
 * the client's spans and metrics (docs/operations.md) sent over OTLP/HTTP to a collector, as service
 * `broker-history`. `ClientOptions.layer` (and a sync of profiles, `sync/plan/Keys`) loads this
 * module, and with it the OpenTelemetry SDK, only when `--otlp-endpoint` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
 *
 * @internal
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import type * as Resource from "@effect/opentelemetry/Resource"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import type * as Layer from "effect/Layer"

/** The `service.name` of everything the command exports. */
export const serviceName = "broker-history"

// A collector that cannot be reached delays the end of a command by at most 5 s: every export,
// its retries included, gives up after `exportTimeoutMillis` (so no request outlives it and keeps
// the process running), and the final flushes of spans and metrics, which run side by side, are
// waited for at most `shutdownTimeout`.
const exportTimeoutMillis = 4_000
const shutdownTimeout = "4500 millis"

/**
 * The OpenTelemetry SDK exporting to the collector at `endpoint` (its base URL, as
 * `OTEL_EXPORTER_OTLP_ENDPOINT` gives it): spans in batches to `endpoint/v1/traces`, metrics every
 * 30 s to `endpoint/v1/metrics`. Closing the layer flushes both, so a command's last spans and final
 * metric values are sent before it exits. An export (retries included) gives up after 4 s, and
 * closing waits at most 5 s in all for a collector that does not answer or cannot be reached; what
 * it could not take is dropped.
 */
export const layer = (endpoint: string): Layer.Layer<Resource.Resource> =>
  NodeSdk.layer(() => ({
    resource: { serviceName },
    spanProcessor: new BatchSpanProcessor(
      new OTLPTraceExporter({ url: `${endpoint}/v1/traces`, timeoutMillis: exportTimeoutMillis }),
      { exportTimeoutMillis }
    ),
    metricReader: new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics`, timeoutMillis: exportTimeoutMillis }),
      exportIntervalMillis: 30_000,
      exportTimeoutMillis
    }),
    shutdownTimeout
  }))
