// What proxy.ts and the server hook refuse before Next routes a request: a path escape Next cannot decode (Next's
// own answer was a bare 500) and a method no route serves. The built server runs the same cases in tests/e2e/run.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { resetConfig } from "@/lib/core/config";
import { guardServerRequests } from "@/lib/http/refusals";
import { hasMalformedEscape, isKnownMethod } from "@/lib/http/request-guard";
import { proxy } from "@/proxy";
import { expectError, readAnswer } from "@/tests/helpers/http";

describe("hasMalformedEscape", () => {
  it("finds a % without two hex digits, and escapes of bytes that are not UTF-8", () => {
    for (const path of [
      "/api/creator/%ZZ",
      "/api/creator/%",
      "/api/creator/%4",
      "/tokens/%G1",
      "/api/x/%C3%28",
      "/api/x/%E0%A4%A",
      "/api/x/%FF",
      "/a%2/b",
    ]) {
      expect(hasMalformedEscape(path), path).toBe(true);
    }
  });

  it("passes plain paths and well-formed escapes (any case)", () => {
    for (const path of [
      "/",
      "/api/creator/0xAbC",
      "/api/x/%20",
      "/api/x/%2f%2F",
      "/api/x/%C3%A9",
      "/api/x/%e2%82%ac",
      "/api/x/%25ZZ",
    ]) {
      expect(hasMalformedEscape(path), path).toBe(false);
    }
  });
});

it("isKnownMethod: the methods Next serves on a route", () => {
  for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    expect(isKnownMethod(method), method).toBe(true);
  for (const method of ["TRACE", "PROPFIND", "CONNECT", "get", "FOO"])
    expect(isKnownMethod(method), method).toBe(false);
});

describe("proxy", () => {
  afterEach(() => {
    delete process.env.TRUSTED_PROXY;
    resetConfig();
  });
  const run = async (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    proxy(new NextRequest(`http://localhost:3000${path}`, init));

  it("answers an API path with a malformed escape 400 invalid_request in the envelope", async () => {
    for (const [method, path] of [
      ["GET", "/api/creator/%ZZ"],
      ["GET", "/api/tokens/deploy/%ZZ"],
      ["DELETE", "/api/pretoken/%ZZ"],
      ["GET", "/api/x/%C3%28?limit=1"],
    ] as const) {
      const answer = await readAnswer((await run(path, { method, headers: { "x-request-id": "bad-path-1" } }))!);
      const error = expectError(answer, 400, "invalid_request");
      expect(error.requestId, path).toBe("bad-path-1");
      expect(answer.headers.get("x-request-id")).toBe("bad-path-1");
      expect(error.error).toMatch(/percent-encoding/);
    }
  });

  it("rewrites a page path with a malformed escape to one no page serves (Next's 404 page)", async () => {
    const answer = (await run("/tokens/%ZZ"))!;
    expect(new URL(answer.headers.get("x-middleware-rewrite")!).pathname).toMatch(/^\/_/);
  });

  it("lets every other path through", async () => {
    expect(await run("/images/tokens/8453/0xabc")).toBeUndefined();
    expect(await run("/api/x/%C3%A9")).toBeUndefined();
    expect(await run("/api/ping", { method: "PROPFIND", headers: { "x-forwarded-for": "6.6.6.6" } })).toBeUndefined();
  });
});

describe("guardServerRequests", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    guardServerRequests();
    guardServerRequests(); // installing twice must not wrap twice
    server = http.createServer((req, res) => res.end(`served ${req.headers["x-forwarded-for"]}`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** fetch cannot send TRACE either: node:http can. */
  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers }, (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (chunk) => (text += chunk))
          .on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      });
      req.on("error", reject).end();
    });

  it("answers TRACE on an API path 405 in the envelope with Allow, before the server's own handler", async () => {
    const answer = await send("TRACE", "/api/ping?x=1", { "x-request-id": "trace-1" });
    expect(answer.status).toBe(405);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers["x-request-id"]).toBe("trace-1");
    expect(answer.headers.allow).toBe("GET, HEAD, POST, DELETE, OPTIONS");
    expect(JSON.parse(answer.text)).toEqual({
      error: "method TRACE is not served here",
      code: "method_not_allowed",
      requestId: "trace-1",
    });
  });

  it("answers TRACE on a page 405 in plain text, and passes every other method to the server", async () => {
    const page = await send("TRACE", "/tokens/x");
    expect([page.status, page.headers.allow, page.text]).toEqual([405, "GET, HEAD", "Method Not Allowed"]);
    expect((await send("GET", "/api/ping")).text).toMatch(/^served /);
    expect((await send("PROPFIND", "/tokens/x")).text).toMatch(/^served /);
  });

  it("answers a method no route serves on an API path 405 method_not_allowed with Allow", async () => {
    const answer = await send("PROPFIND", "/api/ping", { "x-request-id": "propfind-1" });
    expect([answer.status, answer.headers.allow, answer.headers["x-request-id"]]).toEqual([
      405,
      "GET, HEAD, POST, DELETE, OPTIONS",
      "propfind-1",
    ]);
    expect(JSON.parse(answer.text)).toMatchObject({
      code: "method_not_allowed",
      error: expect.stringContaining("PROPFIND"),
    });
  });

  it("with TRUSTED_PROXY=none, X-Forwarded-For is the socket address whatever the client sent; else it is left as sent", async () => {
    expect((await send("GET", "/api/ping", { "x-forwarded-for": "6.6.6.6" })).text).toBe("served 127.0.0.1");
    process.env.TRUSTED_PROXY = "1";
    resetConfig();
    try {
      expect((await send("GET", "/api/ping", { "x-forwarded-for": "6.6.6.6" })).text).toBe("served 6.6.6.6");
    } finally {
      delete process.env.TRUSTED_PROXY;
      resetConfig();
    }
  });
});
