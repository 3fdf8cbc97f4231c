// POST/DELETE /api/admin/verify: the admin_session cookie, its attributes, and who gets one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DELETE, POST } from "@/app/api/admin/verify/route";
import { route } from "@/lib/http/route";
import { resetConfig } from "@/lib/core/config";
import { ADMIN_SESSION_SECONDS } from "@/lib/http/auth/admin";
import { partnerKey, startIssuer, unsignedToken, type Issuer } from "@/tests/helpers/auth";
import { call, expectError, type CallResult } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";

let issuer: Issuer;
let ipCounter = 0;
/** Each test its own client IP: the route is rate limited per IP. */
const freshIp = () => ({ "x-forwarded-for": `198.51.100.${++ipCounter}` });

beforeAll(async () => {
  issuer = await startIssuer([1, 2]);
});
afterAll(() => issuer?.close());

const adminRoute = route({ auth: "admin", handler: ({ principal }) => ({ via: principal.via }) });

function sessionFrom(setCookie: string | null): string {
  const match = /^admin_session=([^;]+);/.exec(setCookie ?? "");
  if (!match) throw new Error(`no admin_session cookie in ${setCookie}`);
  return match[1];
}

describe("POST /api/admin/verify", () => {
  it("trades an admin FID's token for a session cookie that admin routes accept", async () => {
    const before = Date.now();
    const res = await call(POST, "/api/admin/verify", { body: { token: await issuer.token(1) }, headers: freshIp() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + ADMIN_SESSION_SECONDS * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + ADMIN_SESSION_SECONDS * 1000);
    expect(res.headers.get("cache-control")).toBe("no-store");

    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(new RegExp(`; Max-Age=${ADMIN_SESSION_SECONDS}`));
    expect(setCookie).not.toMatch(/Secure/); // the test requests go to localhost

    const session = sessionFrom(setCookie);
    const admin = await call(adminRoute, "/api/t", { headers: { cookie: `admin_session=${session}` } });
    expect(admin.body).toEqual({ via: "cookie" });
  });

  it("accepts the admin secret, and the token in the Authorization header with no body", async () => {
    const bySecret = await call(POST, "/api/admin/verify", {
      body: { secret: process.env.ADMIN_SECRET },
      headers: freshIp(),
    });
    expect(bySecret.status, bySecret.text).toBe(200);
    sessionFrom(bySecret.headers.get("set-cookie"));

    const byHeader = await call(POST, "/api/admin/verify", {
      method: "POST",
      headers: { ...freshIp(), authorization: `Bearer ${await issuer.token(2)}` },
    });
    expect(byHeader.status, byHeader.text).toBe(200);
    sessionFrom(byHeader.headers.get("set-cookie"));

    // Over HTTP a POST without a body still arrives with an empty body stream.
    const request = new Request("http://localhost:3000/api/admin/verify", {
      method: "POST",
      headers: { ...freshIp(), authorization: `Bearer ${await issuer.token(1)}` },
      body: "",
    });
    const emptyStream = await POST(request, { params: Promise.resolve({}) });
    expect(emptyStream.status).toBe(200);
  });

  it("answers 413 for a body over its 16 KiB cap", async () => {
    const res = await call(POST, "/api/admin/verify", { body: { token: "x".repeat(20_000) }, headers: freshIp() });
    expectError(res, 413, "payload_too_large");
  });

  it("marks the cookie Secure when the request itself came over HTTPS", async () => {
    const request = new Request("https://api.example.com/api/admin/verify", {
      method: "POST",
      headers: { "content-type": "application/json", ...freshIp() },
      body: JSON.stringify({ token: await issuer.token(1) }),
    });
    const res = await POST(request, { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/; Secure/);
  });

  it("answers 401 for bad credentials and sets no cookie", async () => {
    const cases: Array<{ body?: unknown; headers?: Record<string, string> }> = [
      { body: { secret: "wrong-secret-0123456789" } },
      { body: { token: "not.a.jwt" } },
      { body: { token: unsignedToken(1) } },
      { body: { token: await issuer.token(1, { exp: Math.floor(Date.now() / 1000) - 10 }) } },
      { body: {} },
      { headers: { authorization: "Bearer nope" } },
    ];
    for (const c of cases) {
      const res = await call(POST, "/api/admin/verify", {
        method: "POST",
        body: c.body,
        headers: { ...freshIp(), ...c.headers },
      });
      expectError(res, 401, "unauthorized");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("answers 403 for a verified user who is not an admin", async () => {
    const res = await call(POST, "/api/admin/verify", { body: { token: await issuer.token(999) }, headers: freshIp() });
    expectError(res, 403, "forbidden");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("answers 400 for a body that is not the expected shape", async () => {
    const ip = freshIp();
    expectError(await call(POST, "/api/admin/verify", { body: { token: 5 }, headers: ip }), 400, "invalid_request");
    expectError(
      await call(POST, "/api/admin/verify", { body: { token: "x", extra: true }, headers: ip }),
      400,
      "invalid_request",
    );
    expectError(await call(POST, "/api/admin/verify", { body: "{oops", headers: ip }), 400, "invalid_request");
  });

  it("does not accept an API key as admin credentials", async () => {
    const res = await call(POST, "/api/admin/verify", {
      method: "POST",
      headers: { ...freshIp(), "x-api-key": await partnerKey() },
    });
    expectError(res, 401, "unauthorized");
  });

  it("limits attempts per client IP (brute force), with the rate-limit headers", async () => {
    freezeDate();
    const ip = freshIp();
    let last: CallResult | undefined;
    for (let i = 0; i < 10; i++) {
      last = await call(POST, "/api/admin/verify", { body: { secret: `guess-number-${i}-xxxxxxxx` }, headers: ip });
      expect(last.status).toBe(401);
    }
    expect(last!.headers.get("x-ratelimit-limit")).toBe("10");
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    // Even the right secret is refused now, from this IP only.
    const blocked = await call(POST, "/api/admin/verify", { body: { secret: process.env.ADMIN_SECRET }, headers: ip });
    expectError(blocked, 429, "rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    expect(
      (await call(POST, "/api/admin/verify", { body: { secret: process.env.ADMIN_SECRET }, headers: freshIp() }))
        .status,
    ).toBe(200);
  });
});

describe("DELETE /api/admin/verify", () => {
  it("clears the cookie", async () => {
    const res = await call(DELETE, "/api/admin/verify", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.headers.get("set-cookie")).toMatch(/^admin_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
  });
});

describe("the cookie's Secure attribute behind a TLS proxy (`next start` sees http://localhost:PORT)", () => {
  afterEach(() => {
    delete process.env.PUBLIC_BASE_URL;
    delete process.env.TRUSTED_PROXY;
    resetConfig();
  });
  function setEnv(env: Record<string, string>) {
    Object.assign(process.env, env);
    resetConfig();
  }
  async function cookies(headers: Record<string, string> = {}) {
    const started = await call(POST, "/api/admin/verify", {
      body: { secret: process.env.ADMIN_SECRET },
      headers: { ...freshIp(), ...headers },
    });
    expect(started.status, started.text).toBe(200);
    const ended = await call(DELETE, "/api/admin/verify", { method: "DELETE", headers });
    return [started.headers.get("set-cookie")!, ended.headers.get("set-cookie")!];
  }

  it("is Secure when PUBLIC_BASE_URL is https, on the session and on its removal", async () => {
    setEnv({ PUBLIC_BASE_URL: "https://api.example.com" });
    for (const cookie of await cookies()) expect(cookie).toMatch(/; Secure$/);
  });

  it("follows PUBLIC_BASE_URL over a forwarded scheme", async () => {
    setEnv({ PUBLIC_BASE_URL: "http://localhost:3000", TRUSTED_PROXY: "1" });
    for (const cookie of await cookies({ "x-forwarded-proto": "https" })) expect(cookie).not.toMatch(/Secure/);
  });

  it("is Secure when the trusted proxy forwards https, and not when it forwards http", async () => {
    setEnv({ TRUSTED_PROXY: "1" });
    for (const cookie of await cookies({ "x-forwarded-proto": "https" })) expect(cookie).toMatch(/; Secure$/);
    for (const cookie of await cookies({ "x-forwarded-proto": "http" })) expect(cookie).not.toMatch(/Secure/);
    setEnv({ TRUSTED_PROXY: "vercel" });
    for (const cookie of await cookies({ "x-forwarded-proto": "https" })) expect(cookie).toMatch(/; Secure$/);
  });

  it("ignores X-Forwarded-Proto that no trusted proxy vouches for (TRUSTED_PROXY=none), so plain http stays usable", async () => {
    setEnv({ TRUSTED_PROXY: "none" });
    for (const cookie of await cookies({ "x-forwarded-proto": "https" })) expect(cookie).not.toMatch(/Secure/);
    for (const cookie of await cookies()) expect(cookie).not.toMatch(/Secure/);
  });
});
