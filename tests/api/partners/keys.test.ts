// Partner keys an operator manages through /api/admin/keys: shown once and stored hashed, scopes per route, expiry,
// rotation with a grace period, revocation at once, per-key limits, and usage per key without a write per request.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { GET as listKeysRoute, POST as createKeyRoute } from "@/app/api/admin/keys/route";
import { DELETE as revokeKeyRoute, GET as getKeyRoute } from "@/app/api/admin/keys/[id]/route";
import { POST as rotateKeyRoute } from "@/app/api/admin/keys/[id]/rotate/route";
import { GET as adminUsageRoute } from "@/app/api/admin/keys/[id]/usage/route";
import { GET as partnerUsageRoute } from "@/app/api/partner/usage/route";
import { POST as deployRoute } from "@/app/api/tokens/deploy/route";
import { POST as indexRoute } from "@/app/api/tokens/index/route";
import { GET as isBlockedRoute } from "@/app/api/tokens/is-blocked/route";
import { GET as listWebhooksRoute } from "@/app/api/webhooks/route";
import { hashApiKey } from "@/lib/domains/partners/apikeys";
import { countDeployment } from "@/lib/domains/launch/deploy/quota";
import { authMatrix, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { freezeDate } from "@/tests/helpers/clock";
import { call, expectError } from "@/tests/helpers/http";
import { describeOnUpstash } from "@/tests/helpers/upstash";

let issuer: Issuer;
let admin: Record<string, string>;
let addresses = 0;
/** Each call from an address of its own: the wrong-key count is per address, and this file makes many calls. */
const from = () => ({ "x-forwarded-for": `2001:db8:c0:${(++addresses).toString(16)}::1` });
const TOKEN = "0x4200000000000000000000000000000000000006";

beforeAll(async () => {
  issuer = await startIssuer([1]);
  admin = { authorization: `Bearer ${await issuer.token(1)}` };
});
afterAll(() => issuer.close());

async function createKey(body: Record<string, unknown>) {
  const res = await call(createKeyRoute, "/api/admin/keys", { headers: admin, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; key: string; prefix: string; scopes: string[] };
}

const read = (key: string) =>
  call(isBlockedRoute, `/api/tokens/is-blocked?address=${TOKEN}`, { headers: { ...from(), "x-api-key": key } });

describe("POST and GET /api/admin/keys", () => {
  authMatrix(
    "admin",
    (headers) => call(listKeysRoute, "/api/admin/keys", { headers }),
    () => issuer,
  );

  it("shows a key once, stores its peppered hash only, and lists it without key or hash", async () => {
    const created = await createKey({
      name: "acme",
      owner: "ops@acme.example",
      scopes: ["read"],
      requestsPerMinute: 100,
      deploysPerDay: 5,
    });
    expect(created.key).toMatch(/^tlk_[A-Za-z0-9_-]{32}$/);
    expect(created).toMatchObject({ name: "acme", owner: "ops@acme.example", status: "active", scopes: ["read"] });
    const row = await db().selectFrom("api_keys").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    const one = await call(getKeyRoute, `/api/admin/keys/${created.id}`, {
      headers: admin,
      params: { id: String(created.id) },
    });
    expect(one.body).toMatchObject({
      id: created.id,
      prefix: created.prefix,
      requestsPerMinute: 100,
      deploysPerDay: 5,
    });
    expect(one.text).not.toContain(created.key);
    const list = await call(listKeysRoute, "/api/admin/keys?limit=100", { headers: admin });
    expect(list.body.keys.map((k: { id: number }) => k.id)).toContain(created.id);
    expect(list.text).not.toContain(created.key);
    expect(list.text).not.toContain(row.key_hash);
  });

  it("pages the list with a cursor", async () => {
    for (let i = 0; i < 3; i++) await createKey({ name: `page-${i}` });
    const first = await call(listKeysRoute, "/api/admin/keys?limit=2", { headers: admin });
    expect(first.body.keys).toHaveLength(2);
    const second = await call(listKeysRoute, `/api/admin/keys?limit=2&cursor=${first.body.nextCursor}`, {
      headers: admin,
    });
    expect(second.body.keys[0].id).toBeGreaterThan(first.body.keys[1].id);
    expectError(await call(listKeysRoute, "/api/admin/keys?cursor=nope", { headers: admin }), 400, "invalid_request");
  });

  it("refuses bad settings with a 400 naming them", async () => {
    for (const body of [
      { name: "" },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: [] },
      { name: "x", requestsPerMinute: 0 },
      { name: "x", expiresAt: "tomorrow" },
      { name: "x", expiresAt: "2020-01-01T00:00:00Z" },
      { name: "x", rewardAddress: "0x123" },
      { name: "x", unknown: 1 },
    ]) {
      const res = await call(createKeyRoute, "/api/admin/keys", { headers: admin, body });
      expectError(res, 400, "invalid_request");
    }
  });

  it("gives keys made before scopes existed every scope (the migration's default)", async () => {
    const row = await db()
      .insertInto("api_keys")
      .values({ name: "legacy", prefix: "tlk_legacy01", key_hash: "0".repeat(64) })
      .returning("scopes")
      .executeTakeFirstOrThrow();
    expect(row.scopes).toEqual(["read", "deploy", "index", "webhooks"]);
  });
});

describe("GET /api/partner/usage", () => {
  authMatrix(
    "partner",
    (headers) => call(partnerUsageRoute, "/api/partner/usage", { headers }),
    () => issuer,
  );
});

describe("scopes", () => {
  it("lets a read key read but not deploy, index or manage webhooks (403 naming the scope)", async () => {
    const { key } = await createKey({ name: "reader", scopes: ["read"] });
    expect((await read(key)).status).toBe(200);
    const headers = { ...from(), "x-api-key": key };
    const deploy = await call(deployRoute, "/api/tokens/deploy", { headers, body: {} });
    expect(expectError(deploy, 403, "forbidden").error).toBe("this API key lacks the deploy scope");
    expectError(await call(indexRoute, "/api/tokens/index", { headers, body: {} }), 403, "forbidden");
    expectError(await call(listWebhooksRoute, "/api/webhooks", { headers }), 403, "forbidden");
    // Its own usage needs no scope.
    expect((await call(partnerUsageRoute, "/api/partner/usage", { headers })).status).toBe(200);
  });

  it("lets a deploy key past auth on the deploy routes but not on reads", async () => {
    const { key } = await createKey({ name: "deployer", scopes: ["deploy", "webhooks"] });
    const headers = { ...from(), "x-api-key": key };
    // Past auth: the empty body is what is refused now.
    expectError(await call(deployRoute, "/api/tokens/deploy", { headers, body: {} }), 400, "invalid_request");
    expect((await call(listWebhooksRoute, "/api/webhooks", { headers })).status).toBe(200);
    expectError(await read(key), 403, "forbidden");
    expectError(await call(indexRoute, "/api/tokens/index", { headers, body: {} }), 403, "forbidden");
  });
});

describe("expiry, rotation and revocation", () => {
  it("ends a key at its expiry", async () => {
    freezeDate();
    const { key, id } = await createKey({ name: "short", expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await read(key)).status).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    expectError(await read(key), 401, "unauthorized");
    const shown = await call(getKeyRoute, `/api/admin/keys/${id}`, { headers: admin, params: { id: String(id) } });
    expect(shown.body.status).toBe("expired");
  });

  it("keeps the old key working for the grace period, with the same partner behind both", async () => {
    freezeDate();
    const { key: old, id } = await createKey({ name: "rotating" });
    const rotated = await call(rotateKeyRoute, `/api/admin/keys/${id}/rotate`, {
      headers: admin,
      params: { id: String(id) },
      body: { graceSeconds: 120 },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.key as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body).toMatchObject({ id, previousPrefix: old.slice(0, 12), prefix: fresh.slice(0, 12) });
    expect((await read(old)).status).toBe(200);
    expect((await read(fresh)).status).toBe(200);
    const usage = await call(partnerUsageRoute, "/api/partner/usage", { headers: { ...from(), "x-api-key": old } });
    expect(usage.body.keyId).toBe(id);
    vi.setSystemTime(Date.now() + 121_000);
    expectError(await read(old), 401, "unauthorized");
    expect((await read(fresh)).status).toBe(200);
  });

  it("ends the previous key at once when rotated again, and with grace 0", async () => {
    const { key: first, id } = await createKey({ name: "twice" });
    const rotate = (body: object) =>
      call(rotateKeyRoute, `/api/admin/keys/${id}/rotate`, { headers: admin, params: { id: String(id) }, body });
    const second = (await rotate({ graceSeconds: 3600 })).body.key as string;
    const third = (await rotate({ graceSeconds: 0 })).body.key as string;
    expectError(await read(first), 401, "unauthorized");
    expectError(await read(second), 401, "unauthorized");
    expect((await read(third)).status).toBe(200);
  });

  it("revokes at once, the key in grace too; rotating a revoked key is a 409, an unknown id a 404", async () => {
    const { key: old, id } = await createKey({ name: "revoked" });
    const params = { id: String(id) };
    const fresh = (await call(rotateKeyRoute, `/api/admin/keys/${id}/rotate`, { headers: admin, params, body: {} }))
      .body.key as string;
    expect((await read(old)).status).toBe(200);
    const revoked = await call(revokeKeyRoute, `/api/admin/keys/${id}`, { method: "DELETE", headers: admin, params });
    expect(revoked.body.status).toBe("revoked");
    expectError(await read(fresh), 401, "unauthorized");
    expectError(await read(old), 401, "unauthorized");
    expectError(
      await call(rotateKeyRoute, `/api/admin/keys/${id}/rotate`, { headers: admin, params, body: {} }),
      409,
      "conflict",
    );
    const unknown = { id: "999999" };
    expectError(
      await call(revokeKeyRoute, "/api/admin/keys/999999", { method: "DELETE", headers: admin, params: unknown }),
      404,
      "not_found",
    );
    expectError(
      await call(getKeyRoute, "/api/admin/keys/999999", { headers: admin, params: unknown }),
      404,
      "not_found",
    );
  });
});

describe("per-key limits", () => {
  it("refuses requests past the key's own limit a minute with 429 and Retry-After, other keys unaffected", async () => {
    freezeDate();
    const { key } = await createKey({ name: "limited", requestsPerMinute: 3 });
    const { key: other } = await createKey({ name: "unlimited" });
    for (let i = 0; i < 3; i++) expect((await read(key)).status).toBe(200);
    const refused = await read(key);
    expectError(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await read(other)).status).toBe(200);
    vi.setSystemTime(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    expect((await read(key)).status).toBe(200);
  });

  it("counts deployments against the key's own deploys a day instead of DEPLOY_DAILY_LIMIT", async () => {
    freezeDate();
    const { id } = await createKey({ name: "few-deploys", deploysPerDay: 2 });
    const headers = new Map<string, string>();
    const deploy = () =>
      db()
        .transaction()
        .execute((trx) => countDeployment(trx, id, (name, value) => headers.set(name, value)));
    await deploy();
    await deploy();
    expect(headers.get("X-RateLimit-Limit")).toBe("2");
    await expect(deploy()).rejects.toMatchObject({ status: 429, code: "rate_limited" });
  });
});

describe("usage", () => {
  it("counts requests by route and status per day, readable by the key and by an admin", async () => {
    const { key, id } = await createKey({ name: "metered", scopes: ["read"] });
    for (let i = 0; i < 3; i++) await read(key);
    await call(deployRoute, "/api/tokens/deploy", { headers: { ...from(), "x-api-key": key }, body: {} }); // 403
    const mine = await call(partnerUsageRoute, "/api/partner/usage?days=2", {
      headers: { ...from(), "x-api-key": key },
    });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.days).toHaveLength(2);
    const [today] = mine.body.days;
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.byRoute).toEqual([
      { route: "GET /api/tokens/is-blocked", status: 200, count: 3 },
      { route: "POST /api/tokens/deploy", status: 403, count: 1 },
    ]);
    expect(today.requests).toBe(4);
    expect(today.deploys).toBe(0);
    const seen = await call(adminUsageRoute, `/api/admin/keys/${id}/usage`, {
      headers: admin,
      params: { id: String(id) },
    });
    // The key's own usage request is counted once answered.
    expect(seen.body.days[0].byRoute).toContainEqual({ route: "GET /api/partner/usage", status: 200, count: 1 });
    expect(seen.body.days).toHaveLength(7);
    expectError(
      await call(partnerUsageRoute, "/api/partner/usage?days=32", { headers: { ...from(), "x-api-key": key } }),
      400,
      "invalid_request",
    );
  });

  it("counts without a database write per request: increments wait in memory on the Postgres backend", async () => {
    const { key, id } = await createKey({ name: "quiet" });
    const counters = () =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM kv_counters WHERE key LIKE ${`usage:key:${id}:%`}`.execute(
        db(),
      );
    for (let i = 0; i < 5; i++) expect((await read(key)).status).toBe(200);
    expect((await counters()).rows[0].n).toBe(0);
    const usage = await call(adminUsageRoute, `/api/admin/keys/${id}/usage?days=1`, {
      headers: admin,
      params: { id: String(id) },
    });
    expect(usage.body.days[0].requests).toBe(5);
    expect((await counters()).rows[0].n).toBe(1);
  });
});

await describeOnUpstash("usage on the Upstash backend", () => {
  it("counts a key's requests in Redis and reads them back", async () => {
    const { key, id } = await createKey({ name: "on-redis" });
    // redis-server is shared by parallel files and earlier runs, whose keys may have had this id: compare counts.
    const usage = async () =>
      (
        await call(adminUsageRoute, `/api/admin/keys/${id}/usage?days=1`, {
          headers: admin,
          params: { id: String(id) },
        })
      ).body.days[0];
    const before = await usage();
    for (let i = 0; i < 3; i++) expect((await read(key)).status).toBe(200);
    const after = await usage();
    const count = (day: { byRoute: { route: string; status: number; count: number }[] }) =>
      day.byRoute.find((r) => r.route === "GET /api/tokens/is-blocked" && r.status === 200)?.count ?? 0;
    expect(count(after) - count(before)).toBe(3);
    expect(after.requests - before.requests).toBe(3);
  });
});
