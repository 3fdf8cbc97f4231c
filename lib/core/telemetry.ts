// The one home of traces and metrics: the tracer, the meters and one-line helpers for the places that record.
// It speaks the OpenTelemetry API only. Until telemetry-start.ts registers an SDK, every helper is a flag test and
// a direct call: no span, no attribute object, no clock read. Names follow OpenTelemetry's semantic conventions
// where one exists (http.server.request.duration, db.client.operation.duration); docs/telemetry.md lists them all.
import {
  type Attributes,
  type Counter,
  type Gauge,
  type Histogram,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
} from "@opentelemetry/api";
import { remember } from "./remember";

const SCOPE = "token-launch-service";

type Instruments = {
  requestDuration: Histogram;
  statementDuration: Histogram;
  jobRuns: Counter;
  indexerHead: Gauge;
  indexerLag: Gauge;
  quarantined: Counter;
  webhookDeliveries: Counter;
  cacheLookups: Counter;
  rateLimitRefusals: Counter;
  searchTimeouts: Counter;
};

type State = { on: boolean; instruments?: Instruments; provider?: TracerProvider; tracer?: Tracer };
const state = remember("telemetry", (): State => ({ on: false }));

/** Whether an SDK was started in this process (telemetry-start.ts); off, nothing is recorded. */
export function telemetryOn(): boolean {
  return state.on;
}

/**
 * Called once the SDK's providers are registered. The instruments are made then: a meter got before is a no-op.
 * `provider`: the tracer provider when it is the service's own, not the global one (self-hosted: telemetry-start.ts).
 */
export function markTelemetryStarted(on = true, provider?: TracerProvider): void {
  state.on = on;
  state.provider = on ? provider : undefined;
  state.instruments = undefined;
  state.tracer = undefined;
}

// Seconds, with the bucket bounds the semantic conventions advise for HTTP and database durations.
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

function instruments(): Instruments {
  if (state.instruments) return state.instruments;
  const meter = metrics.getMeter(SCOPE);
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { unit: "s", description, advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
  state.instruments = {
    requestDuration: seconds("http.server.request.duration", "Duration of HTTP server requests."),
    statementDuration: seconds("db.client.operation.duration", "Duration of database client operations."),
    jobRuns: meter.createCounter("job.runs", { unit: "{run}", description: "Job runs by name and outcome." }),
    indexerHead: meter.createGauge("indexer.head", { unit: "{block}", description: "The chain's head block." }),
    indexerLag: meter.createGauge("indexer.lag", { unit: "{block}", description: "Blocks between head and index." }),
    quarantined: meter.createCounter("indexer.quarantined_events", {
      unit: "{event}",
      description: "Events set aside.",
    }),
    webhookDeliveries: meter.createCounter("webhook.deliveries", { unit: "{attempt}", description: "Attempts." }),
    cacheLookups: meter.createCounter("cache.lookups", { unit: "{lookup}", description: "Cache reads: hit or miss." }),
    rateLimitRefusals: meter.createCounter("rate_limit.refusals", { unit: "{request}", description: "429s by rule." }),
    searchTimeouts: meter.createCounter("search.timeouts", { unit: "{search}", description: "Searches past budget." }),
  };
  return state.instruments;
}

const tracer = () => (state.tracer ??= (state.provider ?? trace.getTracerProvider()).getTracer(SCOPE));

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs `work` in a span of its own (a child of the active one); a throw marks the span failed and goes on. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span?: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!state.on) return work();
  return tracer().startActiveSpan(name, { kind, attributes }, (span) => endedAfter(span, work));
}

/** Runs `work`, then ends `span`; a throw marks the span failed and goes on. */
async function endedAfter<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * One request: a span named after its method and route template, with the answer's status and request id, and its
 * duration in http.server.request.duration. `route` is asked only when telemetry is on. Where Next traces (Vercel:
 * telemetry-start.ts) the request span is Next's span of the route handler, renamed and given these attributes: a
 * span of its own beside it would cost the request as much again and say nothing more. Elsewhere it is a span of its
 * own, the server's span of the request (a caller's `traceparent` its parent), or inside a span already there.
 */
export function traceRequest(request: RequestFacts, respond: () => Promise<Response>): Promise<Response> {
  return state.on ? tracedRequest(request, respond) : respond();
}

type RequestFacts = { method: string; requestId: string; route: () => Promise<string>; headers?: Headers };

/** The caller's trace, from a W3C `traceparent` header: the request span's parent when it has no other. */
function callerContext(headers: Headers | undefined) {
  const match = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/.exec(headers?.get("traceparent")?.trim() ?? "");
  if (!match) return ROOT_CONTEXT;
  const caller = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & 1,
    isRemote: true,
  };
  return isSpanContextValid(caller) ? trace.setSpanContext(ROOT_CONTEXT, caller) : ROOT_CONTEXT;
}

/** Next's span of a route handler, when this runs in one (its SDK span carries Next's span type). */
function nextHandlerSpan(): Span | undefined {
  const span = trace.getActiveSpan() as (Span & { attributes?: Attributes }) | undefined;
  return span?.attributes?.["next.span_type"] === "AppRouteRouteHandlers.runHandler" && span.isRecording()
    ? span
    : undefined;
}

async function tracedRequest(request: RequestFacts, respond: () => Promise<Response>): Promise<Response> {
  const started = performance.now();
  const route = await request.route();
  const name = `${request.method} ${route}`;
  const attributes = { "http.request.method": request.method, "http.route": route };
  const traced = async (span: Span, own: boolean) => {
    span.setAttribute("http.response.header.x-request-id", [request.requestId]);
    let status = 500;
    try {
      const response = await respond();
      status = response.status;
      return response;
    } finally {
      span.setAttribute("http.response.status_code", status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (own) span.end();
      const seconds = (performance.now() - started) / 1000;
      instruments().requestDuration.record(seconds, { ...attributes, "http.response.status_code": status });
    }
  };
  const next = nextHandlerSpan();
  if (!next) {
    // No span of Next's (self-hosted, its tracing off): this one is the server's span of the request.
    // Inside a span already (a job's): not an invalid one, such as Next leaves active with its tracing off.
    const active = trace.getSpanContext(context.active());
    const inner = active !== undefined && isSpanContextValid(active) && !active.isRemote;
    const parent = inner ? context.active() : callerContext(request.headers);
    const kind = inner ? SpanKind.INTERNAL : SpanKind.SERVER;
    return tracer().startActiveSpan(name, { attributes, kind }, parent, (span) => traced(span, true));
  }
  next.updateName(name);
  next.setAttributes(attributes);
  return traced(next, false);
}

/** A job run: a span with the job's name, and its outcome counted in job.runs. */
export function traceJob<T extends { status: string }>(name: string, attempt: number, run: () => Promise<T>) {
  if (!state.on) return run();
  return inSpan(`job ${name}`, { "job.name": name, "job.attempt": attempt }, async (span) => {
    const outcome = await run();
    span?.setAttribute("job.outcome", outcome.status);
    if (outcome.status !== "done") span?.setStatus({ code: SpanStatusCode.ERROR });
    instruments().jobRuns.add(1, { "job.name": name, "job.outcome": outcome.status });
    return outcome;
  });
}

/** A statement's span name and attributes, made once per operation and table (the SDK copies what it is given). */
const statementKinds = new Map<string, { name: string; attributes: Attributes }>();

function statementKind(operation: string, table: string | undefined) {
  const name = table ? `${operation} ${table}` : operation;
  let kind = statementKinds.get(name);
  if (!kind) {
    const attributes: Attributes = { "db.system.name": "postgresql", "db.operation.name": operation };
    if (table) attributes["db.collection.name"] = table;
    kind = { name, attributes };
    if (statementKinds.size < 1000) statementKinds.set(name, kind); // a raw statement's first word: a bounded set
  }
  return kind;
}

/** A database statement that has run: a span back-dated by its duration, and db.client.operation.duration. */
export function recordStatement(operation: string, table: string | undefined, durationMs: number, error?: unknown) {
  if (!state.on) return;
  const { name, attributes } = statementKind(operation, table);
  const ended = performance.timeOrigin + performance.now();
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes, startTime: ended - durationMs });
  if (error !== undefined) failed(span, error);
  span.end(ended);
  const errorType = error === undefined ? undefined : String((error as { code?: unknown }).code ?? "error");
  instruments().statementDuration.record(
    durationMs / 1000,
    errorType === undefined ? attributes : { ...attributes, "error.type": errorType },
  );
}

/**
 * A call that makes no span of its own (a chain's or a provider's): a client span, a child of the active one but
 * never active itself, so that calls running side by side in one request leave its context alone.
 */
function inLeafSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return endedAfter(tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }), work);
}

/** A JSON-RPC call to a chain: a client span with its method and chain id. */
export function traceChainCall<T>(chainId: number, method: string, call: () => Promise<T>): Promise<T> {
  if (!state.on) return call();
  const attributes = { "rpc.system": "jsonrpc", "rpc.method": method, "chain.id": chainId };
  return inLeafSpan(method, attributes, call);
}

/** One HTTP call to a third party (`operation`: its path without values): a client span with the answer's status. */
export function traceProviderCall(provider: string, operation: string, call: () => Promise<Response>) {
  if (!state.on) return call();
  const attributes = { "provider.name": provider, "provider.operation": operation, "http.request.method": "GET" };
  return inLeafSpan(`${provider} ${operation}`, attributes, async (span) => {
    const response = await call();
    span.setAttribute("http.response.status_code", response.status);
    if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    return response;
  });
}

/** Where an indexer stands on a chain: the head it read and the block its checkpoint reached. */
export function recordIndexerPosition(stream: string, chainId: number, source: string, head: number, indexed: number) {
  if (!state.on) return;
  const attributes = { "indexer.stream": stream, "chain.id": chainId, "indexer.source": source.toLowerCase() };
  instruments().indexerHead.record(head, attributes);
  instruments().indexerLag.record(Math.max(0, head - indexed), attributes);
}

export function countQuarantinedEvent(stream: string, chainId: number, reason: string): void {
  if (state.on) instruments().quarantined.add(1, { "indexer.stream": stream, "chain.id": chainId, reason });
}

export function countWebhookDelivery(delivered: boolean): void {
  if (state.on) instruments().webhookDeliveries.add(1, { "webhook.outcome": delivered ? "delivered" : "failed" });
}

/** Counts a cache read as a hit or a miss and gives back what was read. */
export function countCacheLookup<T>(backend: string, value: T | null): T | null {
  if (state.on) instruments().cacheLookups.add(1, { "cache.backend": backend, "cache.hit": value !== null });
  return value;
}

export function countRateLimitRefusal(rule: string): void {
  if (state.on) instruments().rateLimitRefusals.add(1, { "rate_limit.rule": rule });
}

export function countSearchTimeout(search: string): void {
  if (state.on) instruments().searchTimeouts.add(1, { "search.name": search });
}
