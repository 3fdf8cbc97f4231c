// Starts OpenTelemetry in a server process (instrumentation.ts), or does not. On a Vercel deployment @vercel/otel
// registers the providers: its spans go to Vercel's tracing and, with OTEL_EXPORTER_OTLP_ENDPOINT, to the endpoint.
// Self-hosted with an endpoint, the service's own providers export to it, and the tracer provider stays private to
// lib/core/telemetry.ts: Next's tracing sees none and stays off, which is most of what exporting would cost a request
// (docs/telemetry.md, "How it starts"). Otherwise no SDK is loaded and telemetry.ts stays off.
import {
  type Attributes,
  type Context,
  type ContextManager,
  context,
  isSpanContextValid,
  metrics,
  propagation,
  ROOT_CONTEXT,
  type SpanKind,
  trace,
} from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace-base";
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "./config";
import { markTelemetryStarted } from "./telemetry";

type Flushable = { forceFlush(): Promise<void>; shutdown(): Promise<void> };

/** Whether this process exports telemetry: on Vercel, or with an OTLP endpoint. */
export function telemetryWanted(): boolean {
  const cfg = config();
  return !cfg.OTEL_SDK_DISABLED && (cfg.serverless || Boolean(cfg.OTEL_EXPORTER_OTLP_ENDPOINT));
}

/** The providers the service registered itself (self-hosted), for a flush or a shutdown. */
let own: Flushable[] = [];

/** Registers the SDK when telemetryWanted(); true when it did. */
export async function startTelemetry(): Promise<boolean> {
  if (!telemetryWanted()) return false;
  const cfg = config();
  const sampler = await withoutNextPhases();
  const endpoint = cfg.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  if (cfg.serverless || !endpoint) {
    const { registerOTel } = await import("@vercel/otel");
    const metricReaders = endpoint ? [await otlpMetricReader(endpoint)] : [];
    // No automatic fetch spans: the chain's URLs carry API keys, and each outbound call has a span of its own.
    registerOTel({ serviceName: cfg.OTEL_SERVICE_NAME, instrumentations: [], metricReaders, traceSampler: sampler });
    markTelemetryStarted();
    return true;
  }
  const [{ BasicTracerProvider, BatchSpanProcessor }, { MeterProvider }, resources, vercel] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/sdk-metrics"),
    import("@opentelemetry/resources"),
    import("@vercel/otel"),
  ]);
  const { detectResources, envDetector, resourceFromAttributes } = resources;
  // OTEL_RESOURCE_ATTRIBUTES too, as the SDK reads it.
  const resource = resourceFromAttributes({ "service.name": cfg.OTEL_SERVICE_NAME }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const exporterConfig = { url: `${endpoint}/v1/traces`, headers: otlpHeaders() };
  const exporter =
    cfg.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json"
      ? new vercel.OTLPHttpJsonTraceExporter(exporterConfig)
      : new vercel.OTLPHttpProtoTraceExporter(exporterConfig);
  const tracerProvider = new BasicTracerProvider({
    resource,
    sampler,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider({ resource, readers: [await otlpMetricReader(endpoint)] });
  context.setGlobalContextManager(new RequestContextManager(await nextRequestStore()));
  metrics.setGlobalMeterProvider(meterProvider);
  own = [tracerProvider, meterProvider];
  markTelemetryStarted(true, tracerProvider);
  return true;
}

/** OTEL_EXPORTER_OTLP_HEADERS (`key=value,key2=value2`, values URL-encoded) as headers. */
function otlpHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (process.env.OTEL_EXPORTER_OTLP_HEADERS ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at > 0) headers[decoded(pair.slice(0, at).trim())] = decoded(pair.slice(at + 1).trim());
  }
  return headers;
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Where the active context lives. On Node 20 each AsyncLocalStorage costs every promise of the process something
 * (Next's request makes hundreds): one of the service's own cost a request 0.3 ms of CPU, more than all its spans.
 * So a request's context is kept beside the store that Next already carries through the request (its work store),
 * and an AsyncLocalStorage carries it only outside requests (the in-process worker's jobs, the exporters' calls),
 * enabled while such work runs. Within a request, contexts nest but do not overlap: the request's span, then a job's
 * (the QStash executor runs one); spans of chain and provider calls have no children and are never made active.
 * A context that carries no span of this trace's is not made active: Next calls `with` around each phase of every
 * request, outside its work store, and its tracing is off here; it then runs as it does with no SDK at all.
 */
export class RequestContextManager implements ContextManager {
  private readonly byRequest = new WeakMap<object, Context>();
  private readonly store = new AsyncLocalStorage<Context>();
  private outside = 0;

  /** `request`: the store of the request running now, if any (Next's work store in a server). */
  constructor(private readonly request: () => object | undefined) {}

  active(): Context {
    const request = this.request();
    if (request) return this.byRequest.get(request) ?? ROOT_CONTEXT;
    return this.store.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const span = trace.getSpanContext(ctx);
    if (!span || !isSpanContextValid(span)) return fn.apply(thisArg, args);
    const request = this.request();
    if (request) {
      const before = this.byRequest.get(request);
      this.byRequest.set(request, ctx);
      return afterwards(
        () => fn.apply(thisArg, args),
        () => (before ? this.byRequest.set(request, before) : this.byRequest.delete(request)),
      );
    }
    this.outside += 1;
    return afterwards(
      () => this.store.run(ctx, () => fn.apply(thisArg, args)),
      () => {
        // The last such work ended: promises stop paying for the store until the next.
        if (--this.outside === 0) this.store.disable();
      },
    );
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== "function") return target;
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(ctx, () => target.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.store.disable();
    return this;
  }
}

/** Runs `fn`, then `done` when what it returned settles (at once when it is not a promise). */
function afterwards<R>(fn: () => R, done: () => void): R {
  let result: R;
  try {
    result = fn();
  } catch (error) {
    done();
    throw error;
  }
  if (result instanceof Promise) return result.finally(done) as R;
  done();
  return result;
}

/** Next's work store of the request running now: the work-async-storage instance Next shares through globalThis. */
async function nextRequestStore(): Promise<() => object | undefined> {
  const { workAsyncStorage } = await import("next/dist/server/app-render/work-async-storage.external");
  return () => workAsyncStorage.getStore();
}

/**
 * Next's spans that no trace keeps. Six of them come with every request (finding, loading and preparing the route,
 * starting the answer): framework internals that cost the request as much as the spans it keeps. Its fetch spans carry
 * the whole URL, an RPC URL's API key with it. Its request span and its route handler's span stay: route() makes the
 * latter the request span (telemetry.ts).
 */
export const NEXT_SPANS_LEFT_OUT: ReadonlySet<string> = new Set([
  "NextNodeServer.findPageComponents",
  "LoadComponents.loadRouteModule",
  "AppRouteRouteModule.loadUserland",
  "RouteModule.prepare",
  "NextNodeServer.startResponse",
  "NextNodeServer.getLayoutOrPageModule",
  "NextNodeServer.clientComponentLoading",
  "AppRender.fetch",
  "internalFetch",
]);

/**
 * The sampler of OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (`always_on` by default, as @vercel/otel reads them),
 * which records no span of NEXT_SPANS_LEFT_OUT: such a span is a no-op that costs no attribute, export or memory.
 */
async function withoutNextPhases(): Promise<Sampler> {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } =
    await import("@opentelemetry/sdk-trace-base");
  const name = process.env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || "always_on";
  const arg = Number(process.env.OTEL_TRACES_SAMPLER_ARG ?? "");
  const ratio = () => new TraceIdRatioBasedSampler(Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1);
  const samplers: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: ratio() }),
  };
  const inner = (samplers[name] ?? samplers.always_on)();
  return {
    shouldSample(parent: Context, traceId: string, spanName: string, kind: SpanKind, attributes: Attributes, links) {
      const type = attributes["next.span_type"];
      if (typeof type === "string" && NEXT_SPANS_LEFT_OUT.has(type)) return { decision: SamplingDecision.NOT_RECORD };
      return inner.shouldSample(parent, traceId, spanName, kind, attributes, links);
    },
    toString: () => `WithoutNextPhases{${inner.toString()}}`,
  };
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
  if (own.length) return own;
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
  own = [];
  for (const api of [trace, metrics, context, propagation]) api.disable();
  markTelemetryStarted(false);
}
