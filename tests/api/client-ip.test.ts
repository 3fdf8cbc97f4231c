// Per-IP rate limits key on the address TRUSTED_PROXY vouches for, never on a forwarding header the client chose.
import { afterEach, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { parseConfig, resetConfig } from "@/lib/core/config";
import { clientIp } from "@/lib/http/client-ip";
import { ipSubject } from "@/lib/platform/kv/rate-limit";
import { route } from "@/lib/http/route";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";

const request = (headers: Record<string, string>) => new Request("http://localhost/api/x", { headers });
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("TRUSTED_PROXY", () => {
  it("defaults to vercel on Vercel and to the socket address elsewhere; an explicit value wins", () => {
    expect(parseConfig(env({})).TRUSTED_PROXY).toBe("none");
    expect(parseConfig(env({ VERCEL: "1" })).TRUSTED_PROXY).toBe("vercel");
    expect(parseConfig(env({ VERCEL: "1", TRUSTED_PROXY: "none" })).TRUSTED_PROXY).toBe("none");
    expect(parseConfig(env({ TRUSTED_PROXY: "2" })).TRUSTED_PROXY).toBe(2);
  });

  it("refuses any other value, naming the variable", () => {
    for (const bad of ["0", "10", "true", "Vercel", "127.0.0.1", ""]) {
      expect(() => parseConfig(env({ TRUSTED_PROXY: bad })), bad).toThrow(/TRUSTED_PROXY/);
    }
  });
});

describe("clientIp", () => {
  const spoofed = { "x-real-ip": "6.6.6.1", "x-vercel-forwarded-for": "6.6.6.2" };

  it("none: the x-forwarded-for hop Next's server wrote from the socket (the rightmost), nothing else", () => {
    expect(clientIp(request({ "x-forwarded-for": "6.6.6.6, 203.0.113.9", ...spoofed }), "none")).toBe("203.0.113.9");
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.9" }), "none")).toBe("203.0.113.9");
    expect(clientIp(request(spoofed), "none")).toBe("local");
  });

  it("vercel: the headers Vercel's edge overwrites, never x-forwarded-for", () => {
    expect(
      clientIp(
        request({
          "x-vercel-forwarded-for": "198.51.100.1",
          "x-real-ip": "198.51.100.2",
          "x-forwarded-for": "6.6.6.6",
        }),
        "vercel",
      ),
    ).toBe("198.51.100.1");
    expect(clientIp(request({ "x-real-ip": "198.51.100.2", "x-forwarded-for": "6.6.6.6" }), "vercel")).toBe(
      "198.51.100.2",
    );
    expect(clientIp(request({ "x-forwarded-for": "6.6.6.6" }), "vercel")).toBe("local");
  });

  it("N proxies: the hop the outermost one appended, Nth from the right; the leftmost when there are fewer", () => {
    const hops = { "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.2", ...spoofed };
    expect(clientIp(request(hops), 1)).toBe("10.0.0.2");
    expect(clientIp(request(hops), 2)).toBe("198.51.100.7");
    expect(clientIp(request({ "x-forwarded-for": "198.51.100.7" }), 2)).toBe("198.51.100.7");
  });
});

describe("ipSubject", () => {
  it("counts an IPv4 address as itself, an IPv6 address as its /64, an IPv4-mapped one as its IPv4", () => {
    expect(ipSubject("203.0.113.9")).toBe("ip:203.0.113.9");
    expect(ipSubject("2001:db8:1:2::1")).toBe("ip:2001:db8:1:2::/64");
    expect(ipSubject("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("ip:2001:db8:1:2::/64");
    expect(ipSubject("2001:db8:1:3::1")).toBe("ip:2001:db8:1:3::/64");
    expect(ipSubject("::ffff:203.0.113.9")).toBe("ip:203.0.113.9");
    expect(ipSubject("local")).toBe("ip:local");
  });
});

describe("a per-IP limit through route()", () => {
  afterEach(() => {
    delete process.env.TRUSTED_PROXY;
    resetConfig();
  });

  const limited = () =>
    route({
      auth: "public",
      rateLimit: { name: `ip-${randomBytes(3).toString("hex")}`, limit: 1, windowSeconds: 3600 },
      handler: () => ({ ok: true }),
    });

  it("is not reset by a client choosing its own x-forwarded-for hops (default: the socket address)", async () => {
    freezeDate();
    const handler = limited();
    // What `next start` passes on when a client sends its own header: the client's hops are kept as sent.
    expect((await call(handler, "/api/t", { headers: { "x-forwarded-for": "203.0.113.50" } })).status).toBe(200);
    const again = await call(handler, "/api/t", {
      headers: { "x-forwarded-for": "6.6.6.7, 203.0.113.50", "x-real-ip": "6.6.6.8" },
    });
    expectError(again, 429, "rate_limited");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(handler, "/api/t", { headers: { "x-forwarded-for": "203.0.113.51" } })).status).toBe(200);
  });

  it("is shared by the addresses of one IPv6 /64, not by the next /64", async () => {
    freezeDate();
    const handler = limited();
    const from = (ip: string) => call(handler, "/api/t", { headers: { "x-forwarded-for": ip } });
    expect((await from("2001:db8:7:7::1")).status).toBe(200);
    expectError(await from("2001:db8:7:7:abcd::2"), 429, "rate_limited");
    expect((await from("2001:db8:7:8::1")).status).toBe(200);
  });

  it("with TRUSTED_PROXY=vercel keys on Vercel's header", async () => {
    freezeDate();
    process.env.TRUSTED_PROXY = "vercel";
    resetConfig();
    const handler = limited();
    expect(
      (
        await call(handler, "/api/t", {
          headers: { "x-vercel-forwarded-for": "198.51.100.20", "x-forwarded-for": "6.6.6.1" },
        })
      ).status,
    ).toBe(200);
    expectError(
      await call(handler, "/api/t", {
        headers: { "x-vercel-forwarded-for": "198.51.100.20", "x-forwarded-for": "6.6.6.2" },
      }),
      429,
      "rate_limited",
    );
    expect((await call(handler, "/api/t", { headers: { "x-vercel-forwarded-for": "198.51.100.21" } })).status).toBe(
      200,
    );
  });
});
