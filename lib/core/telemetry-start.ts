// Starts OpenTelemetry in a server process (instrumentation.ts), or does not. On a Vercel deployment, and wherever
// OTEL_EXPORTER_OTLP_ENDPOINT is set, @vercel/otel registers the providers: its spans go to Vercel's tracing and to
// the endpoint over OTLP/HTTP, and metrics to the endpoint. Otherwise no SDK is loaded and telemetry.ts stays off.
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { config } from "./config";
import { markTelemetryStarted } from "./telemetry";

type Flushable = { forceFlush(): Promise<void>; shutdown(): Promise<void> };

/** Whether this process exports telemetry: on Vercel, or with an OTLP endpoint. */
export function telemetryWanted(): boolean {
  const cfg = config();
  return !cfg.OTEL_SDK_DISABLED && (cfg.serverless || Boolean(cfg.OTEL_EXPORTER_OTLP_ENDPOINT));
}

/** Registers the SDK when telemetryWanted(); true when it did. */
export async function startTelemetry(): Promise<boolean> {
  if (!telemetryWanted()) return false;
  const cfg = config();
  const { registerOTel } = await import("@vercel/otel");
  const metricReaders = cfg.OTEL_EXPORTER_OTLP_ENDPOINT
    ? [await otlpMetricReader(cfg.OTEL_EXPORTER_OTLP_ENDPOINT)]
    : [];
  // No automatic fetch spans: the chain's URLs carry API keys, and each outbound call has a span of its own.
  registerOTel({ serviceName: cfg.OTEL_SERVICE_NAME, instrumentations: [], metricReaders });
  markTelemetryStarted();
  return true;
}

async function otlpMetricReader(endpoint: string) {
  const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
  const { PeriodicExportingMetricReader } = await import("@opentelemetry/sdk-metrics");
  return new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/metrics` }),
    exportIntervalMillis: config().OTEL_METRIC_EXPORT_INTERVAL,
  });
}

/** The registered providers, for a flush or a shutdown (the API hides them behind its global proxies). */
function providers(): Flushable[] {
  const tracer = trace.getTracerProvider() as unknown as { getDelegate?: () => unknown };
  return [tracer.getDelegate?.(), metrics.getMeterProvider()].filter(
    (p): p is Flushable => typeof (p as Partial<Flushable>)?.forceFlush === "function",
  );
}

/** Sends what is buffered now (spans in batches, metrics every OTEL_METRIC_EXPORT_INTERVAL otherwise). */
export async function flushTelemetry(): Promise<void> {
  await Promise.all(providers().map((p) => p.forceFlush()));
}

/** Flushes, shuts the providers down and unregisters them: the API is a no-op again (tests, a clean exit). */
export async function stopTelemetry(): Promise<void> {
  await Promise.all(providers().map((p) => p.shutdown()));
  for (const api of [trace, metrics, context, propagation]) api.disable();
  markTelemetryStarted(false);
}
