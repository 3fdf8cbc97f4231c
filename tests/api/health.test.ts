import { describe, expect, it } from "vitest";
import { GET, OPTIONS } from "@/app/api/health/route";
import { call } from "../helpers/http";

describe("GET /api/health", () => {
  it("reports the database reachable and the backends", async () => {
    const res = await call(GET, "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.database.reachable).toBe(true);
    expect(res.body.backends.database).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.backends.jobs).toBe("local-worker");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a CORS preflight", async () => {
    const res = OPTIONS();
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });
});
