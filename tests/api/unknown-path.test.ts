// /api/<a path no route serves>: 404 not_found in the error envelope for every method, with x-request-id; the
// catch-all is not an operation of the OpenAPI document.
import { describe, expect, it } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import { buildDocument } from "@/app/_openapi/document";
import { scanRouteFiles } from "@/dev/openapi-manifest";
import { routeModules } from "@/app/_openapi/routes.generated";
import { call, expectError } from "@/tests/helpers/http";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("unknown /api paths", () => {
  it("answer 404 not_found in the envelope for every method, naming the path", async () => {
    for (const method of METHODS) {
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: a test walks every exported method handler; nothing here is bundled
      const res = await call(catchAll[method], "/api/no-such/thing?x=1", {
        method,
        params: { path: ["no-such", "thing"] } as never,
        ...(method === "GET" || method === "DELETE" ? {} : { body: { any: "body" } }),
      });
      const error = expectError(res, 404, "not_found");
      expect(error.error, method).toContain("/api/no-such/thing");
      expect(res.headers.get("x-request-id")).toBe(error.requestId);
      expect(res.headers.get("content-type")).toBe("application/json");
    }
  });

  it("echo a caller's x-request-id", async () => {
    const res = await call(catchAll.GET, "/api/nope", { headers: { "x-request-id": "trace-42" } });
    expect(expectError(res, 404, "not_found").requestId).toBe("trace-42");
    expect(res.headers.get("x-request-id")).toBe("trace-42");
  });

  it("include the platform's paths that carried its name, renamed as docs/compat.md's naming note says", () => {
    const paths = Object.keys(buildDocument(routeModules).paths);
    const renamed = {
      "/api/get-clanker-by-address": "/api/get-token-by-address",
      "/api/get-clankers-by-fid": "/api/get-tokens-by-fid",
      "/api/get-clankers-deployed/by-following": "/api/get-tokens-deployed/by-following",
      "/api/preclank/v4": "/api/pretoken/v4",
      "/api/preclank/pending": "/api/pretoken/pending",
      "/api/preclank/{id}": "/api/pretoken/{id}",
    };
    for (const [platform, ours] of Object.entries(renamed)) {
      expect(paths, ours).toContain(ours);
      expect(paths, platform).not.toContain(platform);
    }
    expect(paths.filter((p) => /clank/i.test(p))).toEqual([]);
  });

  it("are not listed as an operation", () => {
    expect(scanRouteFiles().filter((file) => file.includes("..."))).toEqual([]);
    expect(routeModules.some((r) => r.file.includes("..."))).toBe(false);
    const paths = Object.keys(buildDocument(routeModules).paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => p.includes("path") || p.includes("..."))).toEqual([]);
  });
});
