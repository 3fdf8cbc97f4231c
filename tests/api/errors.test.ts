// The one error envelope, CORS and rate limits, through small routes built here with route().
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { route, preflight } from "@/lib/http/route";
import { notFound } from "@/lib/core/errors";
import { zAddress, zBool, zInt } from "@/lib/core/input";
import { kv } from "@/lib/platform/kv";
import { partnerKey } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";
import { describeOnUpstash } from "@/tests/helpers/upstash";

const listQuery = z.object({ limit: zInt(0, 20).default(10), address: zAddress, champagne: zBool.optional() });
const listRoute = route({ auth: "public", query: listQuery, handler: ({ query }) => query });
const bodyRoute = route({
  auth: "public",
  body: z.object({ name: z.string().min(1), amount: zInt(1, 100) }),
  maxBodyBytes: 64,
  handler: ({ body }) => body,
});
const partnerRoute = route({ auth: "partner", handler: () => ({ ok: true }) });

const address = `0x${"ab".repeat(20)}`;

describe("invalid input: 400 invalid_request", () => {
  it("lists every zod issue in details, each naming its parameter, and names the first in the message", async () => {
    const res = await call(listRoute, "/api/t?limit=50&address=nope&champagne=maybe");
    const error = expectError(res, 400, "invalid_request");
    const details = error.details as Array<{ in: string; path: string; message: string }>;
    expect(details.map((d) => d.path).sort()).toEqual(["address", "champagne", "limit"]);
    expect(details.every((d) => d.in === "query" && d.message.length > 0)).toBe(true);
    expect(details.find((d) => d.path === "limit")!.message).toBe("must be at most 20");
    expect(error.error).toMatch(/^(limit|address|champagne): /);
    expect(res.headers.get("x-request-id")).toBe(error.requestId);
  });

  it("reports a missing required parameter by name", async () => {
    const error = expectError(await call(listRoute, "/api/t"), 400, "invalid_request");
    expect(error.error).toMatch(/^address: /);
  });

  it("rejects a scalar query parameter given two values instead of picking one; the same value twice is that value", async () => {
    const error = expectError(
      await call(listRoute, `/api/t?address=${address}&limit=1&limit=2`),
      400,
      "invalid_request",
    );
    expect(error.error).toMatch(/^limit: /);
    const same = await call(listRoute, `/api/t?address=${address}&limit=2&limit=%202&address=${address}`);
    expect(same.status, same.text).toBe(200);
  });

  it("accepts the same query once, coerced", async () => {
    const res = await call(
      listRoute,
      `/api/t?address=${address.toUpperCase().replace("0X", "0x")}&limit=5&champagne=1`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ limit: 5, address, champagne: true });
  });

  it("answers 400 for malformed JSON, an empty body, and a body of the wrong shape", async () => {
    expect(
      expectError(await call(bodyRoute, "/api/t", { body: '{"name": "x",' }), 400, "invalid_request").error,
    ).toMatch(/JSON/);
    expectError(await call(bodyRoute, "/api/t", { method: "POST" }), 400, "invalid_request");
    const wrong = expectError(
      await call(bodyRoute, "/api/t", { body: { name: "", amount: "x" } }),
      400,
      "invalid_request",
    );
    expect((wrong.details as Array<{ in: string; path: string }>).map((d) => `${d.in}:${d.path}`).sort()).toEqual([
      "body:amount",
      "body:name",
    ]);
  });
});

// Read straight from the wire, not through expectError: the platform's existing clients read `error` as a string.
describe("the envelope's shape", () => {
  const missing = route({
    auth: "public",
    handler: () => {
      throw notFound("no such thing");
    },
  });
  const limitedOnce = route({
    auth: "public",
    rateLimit: { name: `shape-${randomBytes(3).toString("hex")}`, limit: 1, windowSeconds: 3600 },
    handler: () => ({ ok: true }),
  });

  it("is { error: message, code, requestId, details? } for a 400 with details, a 404 and a 429", async () => {
    freezeDate();
    const traced = (id: string) => ({ "x-request-id": id, "x-forwarded-for": "198.51.100.77" });
    const invalid = await call(listRoute, "/api/t?limit=50", { headers: traced("shape-400") });
    const absent = await call(missing, "/api/t", { headers: traced("shape-404") });
    expect((await call(limitedOnce, "/api/t", { headers: traced("shape-ok") })).status).toBe(200);
    const limited = await call(limitedOnce, "/api/t", { headers: traced("shape-429") });

    for (const [res, status, code, id] of [
      [invalid, 400, "invalid_request", "shape-400"],
      [absent, 404, "not_found", "shape-404"],
      [limited, 429, "rate_limited", "shape-429"],
    ] as const) {
      expect(res.status, res.text).toBe(status);
      expect(typeof res.body.error, res.text).toBe("string");
      expect(res.body.error.length).toBeGreaterThan(0);
      expect(res.body.code).toBe(code);
      expect(res.body.requestId).toBe(id);
      expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
    }
    expect(Object.keys(invalid.body).sort()).toEqual(["code", "details", "error", "requestId"]);
    expect(invalid.body.error).toMatch(/^(limit|address): /);
    expect(Array.isArray(invalid.body.details) && invalid.body.details.length).toBe(2);
    expect(Object.keys(absent.body).sort()).toEqual(["code", "error", "requestId"]);
    expect(absent.body.error).toBe("no such thing");
    expect(Object.keys(limited.body).sort()).toEqual(["code", "error", "requestId"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("body size cap: 413 payload_too_large", () => {
  it("refuses a body whose Content-Length is over the cap before reading it", async () => {
    const request = new Request("http://localhost:3000/api/t", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "100000" },
      body: JSON.stringify({ name: "x", amount: "1" }),
    });
    expectError(await toResult(await bodyRoute(request)), 413, "payload_too_large");
  });

  it("refuses a streamed body without Content-Length once it grows past the cap", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) return controller.close(); // would be 32 kB; the route must stop long before
        controller.enqueue(new TextEncoder().encode(" ".repeat(32)));
      },
    });
    const request = new Request("http://localhost:3000/api/t", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expectError(await toResult(await bodyRoute(request)), 413, "payload_too_large");
    expect(pulled).toBeLessThan(10);
  });

  it("reads a body that starts with a UTF-8 byte order mark, as Request.json() does", async () => {
    const res = await call(bodyRoute, "/api/t", { body: '\uFEFF{"name": "x", "amount": "3"}' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ name: "x", amount: 3 });
    expect(await new Request("http://x", { method: "POST", body: '\uFEFF{"a":1}' }).json()).toEqual({ a: 1 });
  });

  it("accepts a body under the cap", async () => {
    const res = await call(bodyRoute, "/api/t", { body: { name: "x", amount: "3" } });
    expect(res.body).toEqual({ name: "x", amount: 3 });
  });
});

describe("failures below the handler", () => {
  it("turns a plain Error into 500 internal with the fixed message and nothing of the error", async () => {
    const throwing = route({
      auth: "public",
      handler: () => {
        throw new Error("secret detail: password=hunter2 at /srv/app/lib/x.ts:12");
      },
    });
    const res = await call(throwing, "/api/t");
    const error = expectError(res, 500, "internal");
    expect(error.error).toBe("internal error");
    expect(res.text).not.toMatch(/hunter2|secret detail|\.ts|at /);
    expect(error.details).toBeUndefined();
  });

  it("turns a Postgres unique violation into 409 conflict", async () => {
    const prefix = `tlk_${randomBytes(4).toString("hex")}`;
    const insert = () =>
      db()
        .insertInto("api_keys")
        .values({ name: "dup", prefix, key_hash: randomBytes(16).toString("hex") })
        .execute();
    const duplicate = route({
      auth: "public",
      handler: async () => {
        await insert();
        await insert();
        return "unreachable";
      },
    });
    const error = expectError(await call(duplicate, "/api/t"), 409, "conflict");
    expect(error.error).not.toMatch(/api_keys|prefix/); // no schema details
  });

  it("turns a statement timeout into 503 timeout with Retry-After", async () => {
    const slow = route({
      auth: "public",
      handler: () =>
        db()
          .transaction()
          .execute(async (trx) => {
            if (process.env.TEST_DATABASE_URL) {
              await sql`SET LOCAL statement_timeout = 50`.execute(trx);
              await sql`SELECT pg_sleep(2)`.execute(trx);
            } else {
              // PGlite has no timer to cancel a statement: raise the same SQLSTATE from the database itself.
              await sql`DO $$ BEGIN RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = 'query_canceled'; END $$`.execute(
                trx,
              );
            }
          }),
    });
    const res = await call(slow, "/api/t");
    expectError(res, 503, "timeout");
    expect(res.headers.get("retry-after")).toBe("5");
    // The database is still usable afterwards (the transaction was rolled back).
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db())).rows[0].one).toBe(1);
  });
});

describe("CORS", () => {
  it("sends CORS headers on public routes, success and error alike", async () => {
    const ok = await call(listRoute, `/api/t?address=${address}`);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(ok.headers.get("access-control-expose-headers")).toMatch(/x-request-id/i);
    const bad = await call(listRoute, "/api/t");
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight().headers.get("access-control-allow-methods")).toMatch(/GET/);
  });

  it("sends none on partner routes", async () => {
    const ok = await call(partnerRoute, "/api/t", { headers: { "x-api-key": await partnerKey() } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBeNull();
    const denied = await call(partnerRoute, "/api/t");
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBeNull();
  });
});

async function toResult(response: Response) {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
}

/** Rate limits through route(): the same cases on the active backend and, when redis-server runs, on Upstash. */
function rateLimitCases(backend: "postgres" | "upstash") {
  const name = `test-${backend}-${randomBytes(3).toString("hex")}`;
  const limited = route({
    auth: "public",
    rateLimit: { name, limit: 2, windowSeconds: 3600 },
    handler: () => ({ ok: true }),
  });
  const limitedPartner = route({
    auth: "partner",
    rateLimit: { name: `${name}-p`, limit: 1, windowSeconds: 3600 },
    handler: () => ({ ok: true }),
  });
  const ip = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });

  it(`uses the ${backend} backend`, async () => {
    expect((await kv()).backend).toBe(backend);
  });

  it("sends the limit headers, then 429 with Retry-After once the bucket is empty", async () => {
    freezeDate();
    const first = await call(limited, "/api/t", { headers: ip(1) });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(3600);
    expect((await call(limited, "/api/t", { headers: ip(1) })).headers.get("x-ratelimit-remaining")).toBe("0");

    const refused = await call(limited, "/api/t", { headers: ip(1) });
    expectError(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    // Another client (the x-forwarded-for Next sets from the socket) has its own bucket.
    expect((await call(limited, "/api/t", { headers: ip(2) })).status).toBe(200);
  });

  it("keys partner routes by API key, not by IP", async () => {
    freezeDate();
    const [a, b] = [await partnerKey("a"), await partnerKey("b")];
    expect((await call(limitedPartner, "/api/t", { headers: { "x-api-key": a, ...ip(3) } })).status).toBe(200);
    expectError(await call(limitedPartner, "/api/t", { headers: { "x-api-key": a, ...ip(4) } }), 429, "rate_limited");
    expect((await call(limitedPartner, "/api/t", { headers: { "x-api-key": b, ...ip(3) } })).status).toBe(200);
  });
}

describe("rate limits on the Postgres backend", () => {
  rateLimitCases("postgres");
});

await describeOnUpstash("rate limits on the Upstash backend", () => rateLimitCases("upstash"));
