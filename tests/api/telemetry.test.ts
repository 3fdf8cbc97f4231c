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
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { kv } from "@/lib/platform/kv";
import { GET as listTokens } from "@/app/api/tokens/route";
import { GET as creator } from "@/app/api/creator/[address]/route";
import { GET as noRoute } from "@/app/api/[...path]/route";
import { call } from "@/tests/helpers/http";

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
    resetConfig();
    expect(await startTelemetry()).toBe(true); // before the first db(): it records its statements

    const listed = await call(listTokens, "/api/tokens?limit=2", { headers: { "x-request-id": "trace-me-1" } });
    expect(listed.status).toBe(200);
    const address = "0x00000000000000000000000000000000000000aa";
    await call(creator, `/api/creator/${address}`, { params: { address } });
    await call(noRoute, "/api/no/such/path", { params: { path: ["no", "such", "path"] } as never });
    await enqueue(job, {});
    expect(await runDueJobs()).toEqual([expect.objectContaining({ status: "done" })]);
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
});
