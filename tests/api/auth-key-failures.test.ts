// Wrong API keys are counted per client address: past the bound the address gets 429 before its key is looked up,
// on the Postgres backend and, when redis-server runs, on Upstash.
import { describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { db } from "@/db";
import { kv } from "@/lib/platform/kv";
import { API_KEY_FAILURE_LIMIT } from "@/lib/http/auth/partner-keys";
import { route } from "@/lib/http/route";
import { partnerKey, revokedPartnerKey } from "@/tests/helpers/auth";
import { freezeDate } from "@/tests/helpers/clock";
import { call, expectError } from "@/tests/helpers/http";
import { describeOnUpstash } from "@/tests/helpers/upstash";

const partnerRoute = route({ auth: "partner", handler: ({ principal }) => ({ partner: principal.name }) });
const userRoute = route({ auth: "user", handler: ({ principal }) => ({ userId: principal.userId }) });
const adminRoute = route({ auth: "admin", handler: ({ principal }) => ({ via: principal.via }) });

/** An address no other test (nor an earlier run against the same redis-server) has used. */
const freshAddress = () => ({ "x-forwarded-for": `10.${[...randomBytes(3)].join(".")}` });
const wrongKey = () => `tlk_${randomBytes(24).toString("base64url")}`;
const { limit } = API_KEY_FAILURE_LIMIT;

function keyFailureCases(backend: "postgres" | "upstash") {
  it(`uses the ${backend} backend`, async () => {
    expect((await kv()).backend).toBe(backend);
  });

  it("answers 401 to wrong keys up to the bound, then 429 with Retry-After, even to a right key", async () => {
    freezeDate();
    const [from, other, good] = [freshAddress(), freshAddress(), await partnerKey("acme")];
    for (let i = 0; i < limit; i++) {
      const res = await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": wrongKey() } });
      expectError(res, 401, "unauthorized");
    }
    const refused = await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": wrongKey() } });
    expectError(refused, 429, "rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(API_KEY_FAILURE_LIMIT.windowSeconds);
    // Refused before the key is looked up: a right key from this address waits for the window to end too.
    const right = await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": good } });
    expectError(right, 429, "rate_limited");
    expect(Number(right.headers.get("retry-after"))).toBeLessThanOrEqual(retryAfter);
    // Another address is unaffected.
    expectError(
      await call(partnerRoute, "/api/t", { headers: { ...other, "x-api-key": wrongKey() } }),
      401,
      "unauthorized",
    );
    expect((await call(partnerRoute, "/api/t", { headers: { ...other, "x-api-key": good } })).status).toBe(200);

    vi.setSystemTime(Date.now() + retryAfter * 1000);
    const later = await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": good } });
    expect(later.status, later.text).toBe(200);
    expectError(
      await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": wrongKey() } }),
      401,
      "unauthorized",
    );
  });

  it("counts revoked keys, and keys tried on user and admin routes, but not malformed ones", async () => {
    freezeDate();
    const [from, good, revoked] = [freshAddress(), await partnerKey("acme"), await revokedPartnerKey()];
    for (let i = 0; i < 2 * limit; i++) {
      const res = await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": `nope-${i}` } });
      expectError(res, 401, "unauthorized");
    }
    expect((await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": good } })).status).toBe(200);
    const routes = [partnerRoute, userRoute, adminRoute];
    for (let i = 0; i < limit; i++) {
      const key = i % 2 ? revoked : wrongKey();
      expectError(
        await call(routes[i % 3]!, "/api/t", { headers: { ...from, "x-api-key": key } }),
        401,
        "unauthorized",
      );
    }
    expectError(
      await call(userRoute, "/api/t", { headers: { ...from, "x-api-key": wrongKey() } }),
      429,
      "rate_limited",
    );
    // On a user route a right key is a 403 (wrong kind of caller); from a refused address it is not looked up.
    expectError(await call(userRoute, "/api/t", { headers: { ...from, "x-api-key": good } }), 429, "rate_limited");
    expectError(await call(adminRoute, "/api/t", { headers: { ...from, "x-api-key": good } }), 429, "rate_limited");
    expectError(await call(partnerRoute, "/api/t", { headers: { ...from, "x-api-key": "nope" } }), 429, "rate_limited");
  });
}

describe("failed API key checks on the Postgres backend", () => {
  keyFailureCases("postgres");

  it("writes nothing for a right key or a request without one", async () => {
    const good = await partnerKey("acme");
    const rows = async () =>
      (
        await sql<{
          n: number;
        }>`select (select count(*) from rate_limits) + (select count(*) from kv_cache) as n`.execute(db())
      ).rows[0]!.n;
    const before = Number(await rows());
    for (let i = 0; i < 5; i++) {
      expect((await call(partnerRoute, "/api/t", { headers: { ...freshAddress(), "x-api-key": good } })).status).toBe(
        200,
      );
      expectError(await call(partnerRoute, "/api/t", { headers: freshAddress() }), 401, "unauthorized");
    }
    expect(Number(await rows())).toBe(before);
  });
});

await describeOnUpstash("failed API key checks on the Upstash backend", () => keyFailureCases("upstash"));
