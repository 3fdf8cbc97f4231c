// GET /api/health: the report, who runs jobs (QSTASH_TOKEN, JOB_WORKER), and 503 when the database is down.
import { afterEach, describe, expect, it } from "vitest";
import { GET, OPTIONS } from "@/app/api/health/route";
import { closeDb } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { call, expectError } from "@/tests/helpers/http";

/** Runs `fn` with these environment variables (undefined: unset), then puts the old values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    resetConfig();
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

afterEach(() => resetConfig());

describe("GET /api/health", () => {
  it("reports the database reachable and the backends", async () => {
    const res = await call(GET, "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.database.reachable).toBe(true);
    expect(res.body.backends.database).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.backends.jobs).toBe("local-worker");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("names who runs jobs as JOB_WORKER and QSTASH_TOKEN say", async () => {
    const jobs = async (vars: Record<string, string | undefined>) =>
      withEnv(vars, async () => (await call(GET, "/api/health")).body.backends.jobs);
    expect(await jobs({ JOB_WORKER: "false" })).toBe("none");
    expect(await jobs({ JOB_WORKER: "true" })).toBe("local-worker");
    expect(await jobs({ QSTASH_TOKEN: "test-token" })).toBe("qstash");
    expect(await jobs({ QSTASH_TOKEN: "test-token", JOB_WORKER: "true" })).toBe("qstash+local-worker");
  });

  it("answers 503 provider_unavailable with Retry-After, naming the database, when the database does not answer", async () => {
    await closeDb();
    try {
      const res = await withEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/unreachable" }, async () => {
        try {
          return await call(GET, "/api/health");
        } finally {
          await closeDb();
        }
      });
      const error = expectError(res, 503, "provider_unavailable");
      expect(error.error).toMatch(/database/);
      expect(error.details).toEqual([
        expect.objectContaining({
          part: "database",
          reachable: false,
          backends: expect.objectContaining({ database: "postgres" }),
        }),
      ]);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("x-request-id")).toBe(error.requestId);
    } finally {
      resetConfig();
    }
    expect((await call(GET, "/api/health")).status).toBe(200);
  });

  it("answers a CORS preflight", async () => {
    const res = OPTIONS();
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });
});
