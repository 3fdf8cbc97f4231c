// Traces and metrics reach an OTLP/HTTP receiver when OTEL_EXPORTER_OTLP_ENDPOINT is set, with the names and
// attributes docs/telemetry.md lists; without it no SDK is registered and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { metrics, trace } from "@opentelemetry/api";
import { custom } from "viem";
import { z } from "zod";
import { resetConfig } from "@/lib/core/config";
import { telemetryOn } from "@/lib/core/telemetry";
import { flushTelemetry, startTelemetry, stopTelemetry, telemetryWanted } from "@/lib/core/telemetry-start";
import { getPublicClient, setChainTransport } from "@/lib/platform/chain/clients";
import { defineJob, enqueue } from "@/lib/platform/jobs/define";
import { jobRegistry } from "@/lib/platform/jobs/registry";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { kv } from "@/lib/platform/kv";
import { GET as listTokens } from "@/app/api/tokens/route";
import { GET as creator } from "@/app/api/creator/[address]/route";
import { GET as noRoute } from "@/app/api/[...path]/route";
import { db } from "@/db";
import { type EventStream, followStream } from "@/lib/platform/chain/follower";
import { quarantineEvent } from "@/lib/platform/quarantine";
import { enforceRateLimit } from "@/lib/platform/kv/rate-limit";
import { withSearchBudget } from "@/lib/domains/tokens/budget";
import { deliverWebhookJob } from "@/lib/domains/webhooks/jobs";
import { POST as registerWebhook } from "@/app/api/webhooks/route";
import { call } from "@/tests/helpers/http";
import { partnerKey } from "@/tests/helpers/auth";
import { startFakeServer } from "@/tests/helpers/fake-server";

type Value = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  arrayValue?: { values: Value[] };
};
type Attribute = { key: string; value: Value };
type OtlpSpan = { name: string; spanId: string; parentSpanId?: string; attributes: Attribute[] };
type Point = { attributes: Attribute[] };
type OtlpMetric = { name: string } & Partial<Record<"histogram" | "sum" | "gauge", { dataPoints: Point[] }>>;

/** An OTLP/HTTP JSON receiver: keeps each body posted to /v1/traces and /v1/metrics. */
const received: Record<string, unknown[]> = { "/v1/traces": [], "/v1/metrics": [] };
let receiver: Server;

const plain = (v: Value): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.arrayValue?.values.map(plain)));
const attrs = (list: Attribute[]) => Object.fromEntries(list.map((a) => [a.key, plain(a.value)]));

const spans = (): OtlpSpan[] =>
  (received["/v1/traces"] as Array<{ resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }>).flatMap(
    (b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
  );
const metricPoints = (name: string) =>
  (received["/v1/metrics"] as Array<{ resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: OtlpMetric[] }> }> }>)
    .flatMap((b) => b.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)))
    .filter((m) => m.name === name)
    .flatMap((m) => (m.histogram ?? m.sum ?? m.gauge)?.dataPoints ?? [])
    .map((p) => attrs(p.attributes));

const job = defineJob({ name: "test-telemetry", schema: z.object({}), handle: async () => ({ ok: true }) });
const jobs = jobRegistry([{ jobs: [job, deliverWebhookJob] }]);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      received[req.url ?? ""]?.push(JSON.parse(body.toString("utf8")));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await stopTelemetry();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  delete process.env.SEARCH_TIMEOUT_MS;
  resetConfig();
  setChainTransport(8453, undefined);
  await new Promise((resolve) => receiver.close(resolve));
});

describe("telemetry", () => {
  it("starts no SDK and sends nothing without an endpoint", async () => {
    expect(telemetryWanted()).toBe(false);
    expect(await startTelemetry()).toBe(false);
    expect(telemetryOn()).toBe(false);
    expect((await call(noRoute, "/api/nothing", { params: { path: ["nothing"] } as never })).status).toBe(404);
    // The API's globals are still its no-ops: a span records nothing and a meter provider has no readers.
    expect(trace.getTracer("t").startSpan("s").isRecording()).toBe(false);
    expect(metrics.getMeterProvider().constructor.name).toBe("NoopMeterProvider");
    expect(received["/v1/traces"]).toEqual([]);
    expect(received["/v1/metrics"]).toEqual([]);
  });

  it("sends spans and metrics of requests, statements, chain calls and jobs to the OTLP endpoint", async () => {
    const { port } = receiver.address() as { port: number };
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
    process.env.SEARCH_TIMEOUT_MS = "30000"; // a cold database on a busy machine: not this test's concern
    resetConfig();
    expect(await startTelemetry()).toBe(true); // before the first db(): it records its statements

    const listed = await call(listTokens, "/api/tokens?limit=2", { headers: { "x-request-id": "trace-me-1" } });
    expect(listed.status, listed.text).toBe(200);
    const address = "0x00000000000000000000000000000000000000aa";
    await call(creator, `/api/creator/${address}`, { params: { address } });
    await call(noRoute, "/api/no/such/path", { params: { path: ["no", "such", "path"] } as never });
    await enqueue(job, {});
    expect(await runDueJobs(jobs)).toEqual([expect.objectContaining({ status: "done" })]);
    setChainTransport(8453, custom({ request: async () => "0x10" }));
    expect(await getPublicClient(8453).getBlockNumber()).toBe(16n);
    await (await kv()).get("telemetry-test-missing");
    await flushTelemetry();

    const all = spans();
    const request = all.find((s) => s.name === "GET /api/tokens");
    expect(attrs(request!.attributes)).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/tokens",
      "http.response.status_code": 200,
      "http.response.header.x-request-id": ["trace-me-1"],
    });
    const statement = all.find((s) => s.name === "SELECT tokens" && s.parentSpanId === request!.spanId);
    expect(attrs(statement!.attributes)).toMatchObject({
      "db.system.name": "postgresql",
      "db.operation.name": "SELECT",
      "db.collection.name": "tokens",
    });
    expect(all.map((s) => s.name)).toEqual(
      expect.arrayContaining(["GET /api/creator/[address]", "GET /api/[...path]", "job test-telemetry"]),
    );
    const chainCall = all.find((s) => s.name === "eth_blockNumber");
    expect(attrs(chainCall!.attributes)).toMatchObject({
      "rpc.system": "jsonrpc",
      "rpc.method": "eth_blockNumber",
      "chain.id": 8453,
    });
    expect(attrs(all.find((s) => s.name === "job test-telemetry")!.attributes)).toMatchObject({
      "job.name": "test-telemetry",
      "job.outcome": "done",
    });

    expect(metricPoints("http.server.request.duration")).toEqual(
      expect.arrayContaining([
        { "http.request.method": "GET", "http.route": "/api/tokens", "http.response.status_code": 200 },
        { "http.request.method": "GET", "http.route": "/api/[...path]", "http.response.status_code": 404 },
      ]),
    );
    expect(metricPoints("db.client.operation.duration")).toContainEqual({
      "db.system.name": "postgresql",
      "db.operation.name": "SELECT",
      "db.collection.name": "tokens",
    });
    expect(metricPoints("job.runs")).toContainEqual({ "job.name": "test-telemetry", "job.outcome": "done" });
    expect(metricPoints("cache.lookups")).toContainEqual({ "cache.backend": "postgres", "cache.hit": false });
  });

  it("sends the indexer, quarantine, webhook, cache, rate-limit and search-timeout metrics", async () => {
    expect(telemetryOn()).toBe(true); // started by the test before
    // The indexer's head and lag per chain and factory, recorded at the end of a run.
    const factories = ["0x00000000000000000000000000000000000000F1", "0x00000000000000000000000000000000000000f2"];
    const stream: EventStream<null> = {
      stream: "telemetry-test",
      chainId: 8453,
      sources: factories.map((address, i) => ({ address: address as `0x${string}`, startBlock: 90 + i * 5 })),
      read: async () => null,
      eventsOf: () => [],
      store: async () => ({ stored: 0, setAside: [] }),
    };
    await followStream(stream, { maxBlockRange: 4, maxRanges: 1, head: 100 });

    await quarantineEvent(db(), {
      stream: "token-created",
      chainId: 8453,
      address: `0x${"ab".repeat(20)}`,
      blockNumber: 100,
      logIndex: 0,
      txHash: `0x${"cd".repeat(32)}`,
      reason: "undecodable",
      error: "not a TokenCreated event",
    });

    // One delivery the receiver takes, one it refuses.
    const hooks = await startFakeServer((req) => ({ status: req.path === "/ok" ? 200 : 500, json: {} }));
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    resetConfig();
    try {
      const key = await partnerKey("telemetry");
      for (const [n, path] of ["/ok", "/refuses"].entries()) {
        const registered = await call(registerWebhook as never, "/api/webhooks", {
          headers: { "x-api-key": key },
          body: { url: `${hooks.url}${path}` },
        });
        expect(registered.status, registered.text).toBe(201);
        const payload = {
          subscriptionId: (registered.body as { id: string }).id,
          deliveryId: `telemetry-${n}`,
          attempt: 1,
          data: {},
        };
        await enqueue(deliverWebhookJob, { ...payload, event: "token.created" });
      }
      await runDueJobs(jobs);
      expect(hooks.requests.map((r) => r.path).sort()).toEqual(["/ok", "/refuses"]);
    } finally {
      await hooks.close();
    }

    await (await kv()).set("telemetry-test-present", { v: 1 }, 60);
    await (await kv()).get("telemetry-test-present");
    const rule = { name: "telemetry-test", limit: 1, windowSeconds: 60 };
    await enforceRateLimit(rule, "ip:192.0.2.1");
    await expect(enforceRateLimit(rule, "ip:192.0.2.1")).rejects.toMatchObject({ status: 429 });
    const slow = () => new Promise((resolve) => setTimeout(resolve, 100));
    await expect(withSearchBudget(slow, 10)).rejects.toMatchObject({ code: "timeout" });
    await slow(); // the abandoned search gives its connection back
    await flushTelemetry();

    const position = (address: string) => ({
      "indexer.stream": "telemetry-test",
      "chain.id": 8453,
      "indexer.source": address.toLowerCase(),
    });
    expect(metricPoints("indexer.head")).toEqual(expect.arrayContaining(factories.map(position)));
    expect(metricPoints("indexer.lag")).toEqual(expect.arrayContaining(factories.map(position)));
    expect(metricPoints("indexer.quarantined_events")).toContainEqual({
      "indexer.stream": "token-created",
      "chain.id": 8453,
      reason: "undecodable",
    });
    expect(metricPoints("webhook.deliveries")).toEqual(
      expect.arrayContaining([{ "webhook.outcome": "delivered" }, { "webhook.outcome": "failed" }]),
    );
    expect(metricPoints("cache.lookups")).toEqual(
      expect.arrayContaining([
        { "cache.backend": "postgres", "cache.hit": true },
        { "cache.backend": "postgres", "cache.hit": false },
      ]),
    );
    expect(metricPoints("rate_limit.refusals")).toContainEqual({ "rate_limit.rule": "telemetry-test" });
    expect(metricPoints("search.timeouts")).toContainEqual({ "search.name": "tokens" });
  });

  it("leaves Next's tracing off, makes route()'s span the request's server span, and joins a caller's trace", async () => {
    // The tracer provider is the service's own: the API's global one, which Next's tracing reads, stays a no-op.
    expect(trace.getTracer("next.js").startSpan("start response").isRecording()).toBe(false);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const caller = "00f067aa0ba902b7";
    const answer = await call(noRoute, "/api/under/caller", {
      params: { path: ["under", "caller"] } as never,
      headers: { "x-request-id": "trace-me-2", traceparent: `00-${traceId}-${caller}-01` },
    });
    expect(answer.status).toBe(404);
    await flushTelemetry();
    const mine = spans().filter((s) => JSON.stringify(s.attributes).includes("trace-me-2"));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ name: "GET /api/[...path]", kind: 2, traceId, parentSpanId: caller });
    const request = spans().find((s) => s.name === "GET /api/tokens");
    expect(request).toMatchObject({ kind: 2 });
    expect(request!.parentSpanId ?? "").toBe("");
  });
});
