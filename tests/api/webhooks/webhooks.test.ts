// Launch webhooks: registration rules (https, SSRF refusals, cap, ownership), signed delivery through the job
// system to a local receiver, retries with backoff, the delivery log, and the 24 h pause.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { enqueueTokenCreatedWebhooks } from "@/lib/domains/webhooks/service";
import { isInternalAddress } from "@/lib/domains/webhooks/ssrf";
import { POST, GET } from "@/app/api/webhooks/route";
import { DELETE } from "@/app/api/webhooks/[id]/route";
import { GET as openapi } from "@/app/api/openapi.json/route";
import { standaloneSchema } from "@/app/_openapi/document";
import { call, expectError } from "@/tests/helpers/http";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";
import { insertTokens, address } from "@/tests/api/tokens/fixtures";

let issuer: Issuer;
let receiver: FakeServer;
let key: string;
let otherKey: string;

const setAllowPrivate = (value: "true" | "false") => {
  process.env.WEBHOOK_ALLOW_PRIVATE = value;
  resetConfig();
};
const register = (body: unknown, k = key) => call(POST as any, "/api/webhooks", { headers: { "x-api-key": k }, body });
const makeDue = () => db().updateTable("jobs").set({ run_at: sql`now()` }).where("status", "=", "pending").execute();

async function newToken(n: number) {
  const [t] = await insertTokens([
    { contract_address: address("c", n), name: `Hook ${n}`, symbol: `HK${n}`, deployed_at: new Date() },
  ]);
  const row = await db().selectFrom("tokens").selectAll().where("id", "=", t.id).executeTakeFirstOrThrow();
  return { row, enqueued: await enqueueTokenCreatedWebhooks(db(), row) };
}

beforeAll(async () => {
  issuer = await startIssuer();
  receiver = await startFakeServer(() => ({ status: 200, json: { ok: true } }));
  key = await partnerKey("hooks");
  otherKey = await partnerKey("other");
  setAllowPrivate("true");
});
afterAll(async () => {
  await receiver.close();
  await issuer.close?.();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  resetConfig();
});

describe("POST /api/webhooks auth", () => {
  authMatrix(
    "partner",
    (headers) => call(POST as any, "/api/webhooks", { headers, body: { url: "https://example.com/h" } }),
    () => issuer,
  );
});
describe("DELETE /api/webhooks/{id} auth", () => {
  let othersId = "";
  beforeAll(async () => {
    othersId = (await register({ url: `${receiver.url}/other` }, otherKey)).body.id;
  });
  authMatrix(
    "partner",
    (headers) =>
      call(DELETE as any, "/api/webhooks/x", {
        method: "DELETE",
        headers,
        params: { id: "00000000-0000-4000-8000-000000000000" },
      }),
    () => issuer,
    async () =>
      call(DELETE as any, "/api/webhooks/x", {
        method: "DELETE",
        headers: { "x-api-key": key },
        params: { id: othersId },
      }),
  );
});

describe("registration", () => {
  it("refuses loopback, private, link-local and non-https targets when private targets are not allowed", async () => {
    setAllowPrivate("false");
    try {
      for (const url of [
        "http://example.com/h",
        "https://127.0.0.1/h",
        "https://10.1.2.3/h",
        "https://169.254.169.254/latest",
        "https://[::1]/h",
        "https://[::ffff:192.168.0.1]/h",
        "https://[::127.0.0.1]/h",
        "https://[2002:7f00:1::]/h",
        "https://[64:ff9b::a9fe:a9fe]/h",
        "https://localhost/h",
        "https://user:pw@example.com/h",
        receiver.url,
      ]) {
        const err = expectError(await register({ url }), 400, "invalid_request");
        expect(err.error).toMatch(/^url: /);
      }
      // "localtest.me" style names resolve to loopback: refused by resolution (skips quietly offline).
      const res = await register({ url: "https://localhost.localdomain/h" });
      expect(res.status).toBe(400);
      expect(
        await db().selectFrom("webhook_subscriptions").select("id").where("url", "like", "%example.com%").execute(),
      ).toEqual([]);
    } finally {
      setAllowPrivate("true");
    }
  });

  it("classifies addresses", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.20.1.1",
      "192.168.1.1",
      "169.254.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"])
      expect(isInternalAddress(a), a).toBe(false);
  });

  it("validates the body: 400 for bad url/events, nothing stored", async () => {
    expectError(await register({ url: "not a url" }), 400, "invalid_request");
    expectError(await register({ url: "https://example.com", events: ["token.deleted"] }), 400, "invalid_request");
    expectError(await register({ url: "https://example.com", events: [] }), 400, "invalid_request");
    const list = await call(GET as any, "/api/webhooks", { headers: { "x-api-key": key } });
    expect(list.body.data).toEqual([]);
  });

  it("returns the secret once, lists own subscriptions without it, deletes own only", async () => {
    const created = await register({ url: `${receiver.url}/a` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: `${receiver.url}/a`, events: ["token.created"] });
    expect(created.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const list = await call(GET as any, "/api/webhooks", { headers: { "x-api-key": key } });
    expect(list.body.data.map((s: any) => s.id)).toEqual([created.body.id]);
    expect(list.text).not.toContain(created.body.secret);
    const others = await call(GET as any, "/api/webhooks", { headers: { "x-api-key": otherKey } });
    expect(others.body.data.map((s: any) => s.id)).not.toContain(created.body.id);
    const del = await call(DELETE as any, "/x", {
      method: "DELETE",
      headers: { "x-api-key": otherKey },
      params: { id: created.body.id },
    });
    expectError(del, 404, "not_found");
    expectError(
      await call(DELETE as any, "/x", { method: "DELETE", headers: { "x-api-key": key }, params: { id: "nope" } }),
      400,
      "invalid_request",
    );
    const mine = await call(DELETE as any, "/x", {
      method: "DELETE",
      headers: { "x-api-key": key },
      params: { id: created.body.id },
    });
    expect(mine.status).toBe(204);
  });

  it("caps subscriptions per partner with 409", async () => {
    process.env.WEBHOOK_MAX_PER_PARTNER = "2";
    resetConfig();
    try {
      const k = await partnerKey("capped");
      expect((await register({ url: `${receiver.url}/1` }, k)).status).toBe(201);
      expect((await register({ url: `${receiver.url}/2` }, k)).status).toBe(201);
      expectError(await register({ url: `${receiver.url}/3` }, k), 409, "conflict");
      for (const s of (await call(GET as any, "/", { headers: { "x-api-key": k } })).body.data) {
        await call(DELETE as any, "/x", { method: "DELETE", headers: { "x-api-key": k }, params: { id: s.id } });
      }
    } finally {
      delete process.env.WEBHOOK_MAX_PER_PARTNER;
      resetConfig();
    }
  });

  it("answers match their documented schemas", async () => {
    const doc = (await call(openapi as any, "/api/openapi.json")).body;
    const created = await register({ url: `${receiver.url}/doc` });
    const post = standaloneSchema(
      doc,
      doc.paths["/api/webhooks"].post.responses["201"].content["application/json"].schema,
    );
    expect(z.fromJSONSchema(post).safeParse(created.body).success).toBe(true);
    const list = await call(GET as any, "/api/webhooks", { headers: { "x-api-key": key } });
    const get = standaloneSchema(
      doc,
      doc.paths["/api/webhooks"].get.responses["200"].content["application/json"].schema,
    );
    expect(z.fromJSONSchema(get).safeParse(list.body).success).toBe(true);
    expect(z.fromJSONSchema(get).safeParse({ data: [{ id: 1 }] }).success).toBe(false);
    await call(DELETE as any, "/x", {
      method: "DELETE",
      headers: { "x-api-key": key },
      params: { id: created.body.id },
    });
  });
});

describe("delivery", () => {
  beforeEach(() => db().deleteFrom("webhook_subscriptions").execute()); // counts below are per single subscription
  it("POSTs each new token once per subscription, signed over timestamp.body, and logs it", async () => {
    receiver.handle(() => ({ status: 200, json: { ok: true } }));
    const sub = (await register({ url: `${receiver.url}/deliver` })).body;
    const before = receiver.requests.length;
    const { row, enqueued } = await newToken(1);
    expect(enqueued).toBe(1);
    // The same token indexed again is no new event: nothing is enqueued, and the stream has it once.
    expect(await enqueueTokenCreatedWebhooks(db(), row)).toBe(0);
    const events = await db().selectFrom("token_events").select("seq").where("token_id", "=", row.id).execute();
    expect(events).toHaveLength(1);
    await runDueJobs(jobs);
    const got = receiver.requests.slice(before).filter((r) => r.path === "/deliver");
    expect(got).toHaveLength(1);
    const req = got[0];
    const ts = String(req.headers["x-webhook-timestamp"]);
    const expected = `v1=${createHmac("sha256", sub.secret).update(`${ts}.${req.body}`).digest("hex")}`;
    expect(req.headers["x-webhook-signature"]).toBe(expected);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({ id: req.headers["x-webhook-id"], type: "token.created" });
    // The delivery is what the document's `webhooks` publish: its headers and its body's schema.
    const doc = (await call(openapi as any, "/api/openapi.json")).body;
    const hook = doc.webhooks["token.created"].post;
    const published = standaloneSchema(doc, hook.requestBody.content["application/json"].schema);
    const parsed = z.fromJSONSchema(published).safeParse(body);
    expect(parsed.success, parsed.error?.message).toBe(true);
    for (const header of hook.parameters)
      expect(String(req.headers[header.name])).toMatch(new RegExp(header.schema.pattern));
    expect(body.data.contract_address.toLowerCase()).toBe(row.contract_address);
    const log = await db().selectFrom("webhook_deliveries").selectAll().where("subscription_id", "=", sub.id).execute();
    expect(log).toMatchObject([{ attempt: 1, status: "succeeded", response_code: 200, error: null }]);
    await call(DELETE as any, "/x", { method: "DELETE", headers: { "x-api-key": key }, params: { id: sub.id } });
  });

  it("neither records nor delivers a token deployed over an hour ago (history from a backfill)", async () => {
    await register({ url: `${receiver.url}/deliver` });
    const [t] = await insertTokens([
      {
        contract_address: address("c", 90),
        name: "Old",
        symbol: "OLD",
        deployed_at: new Date(Date.now() - 2 * 3600_000),
      },
    ]);
    const row = await db().selectFrom("tokens").selectAll().where("id", "=", t.id).executeTakeFirstOrThrow();
    expect(await enqueueTokenCreatedWebhooks(db(), row)).toBe(0);
    expect(await db().selectFrom("token_events").select("seq").where("token_id", "=", row.id).execute()).toEqual([]);
  });

  it("retries a failing receiver with backoff, then succeeds; a deleted subscription gets nothing", async () => {
    let n = 0;
    receiver.handle((r) => (r.path === "/flaky" && n++ < 2 ? { status: 503, text: "busy" } : { status: 204 }));
    const sub = (await register({ url: `${receiver.url}/flaky` })).body;
    await newToken(2);
    await runDueJobs(jobs);
    const pending = await db()
      .selectFrom("jobs")
      .select(["run_at"])
      .where("name", "=", "webhook-deliver")
      .where("status", "=", "pending")
      .execute();
    expect(pending).toHaveLength(1);
    expect(pending[0].run_at.getTime()).toBeGreaterThan(Date.now() + 20_000); // the first backoff step is 30 s
    await makeDue();
    await runDueJobs(jobs);
    await makeDue();
    await runDueJobs(jobs);
    const log = await db()
      .selectFrom("webhook_deliveries")
      .select(["attempt", "status", "response_code"])
      .where("subscription_id", "=", sub.id)
      .orderBy("attempt")
      .execute();
    expect(log).toEqual([
      { attempt: 1, status: "failed", response_code: 503 },
      { attempt: 2, status: "failed", response_code: 503 },
      { attempt: 3, status: "succeeded", response_code: 204 },
    ]);
    const s = await db()
      .selectFrom("webhook_subscriptions")
      .select(["failing_since", "status"])
      .where("id", "=", sub.id)
      .executeTakeFirstOrThrow();
    expect(s).toEqual({ failing_since: null, status: "active" });
    await call(DELETE as any, "/x", { method: "DELETE", headers: { "x-api-key": key }, params: { id: sub.id } });
    const before = receiver.requests.length;
    await newToken(3);
    await runDueJobs(jobs);
    expect(receiver.requests.length).toBe(before);
  });

  it("times out a hanging receiver and pauses a subscription failing for 24 h", async () => {
    process.env.WEBHOOK_TIMEOUT_MS = "300";
    resetConfig();
    try {
      receiver.handle((r) => (r.path === "/hang" ? { hang: true } : { status: 200 }));
      const sub = (await register({ url: `${receiver.url}/hang` })).body;
      await newToken(4);
      await runDueJobs(jobs);
      const first = await db()
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("subscription_id", "=", sub.id)
        .execute();
      expect(first).toMatchObject([{ attempt: 1, status: "failed", response_code: null }]);
      expect(first[0].error).toMatch(/no answer within 300 ms/);
      await db()
        .updateTable("webhook_subscriptions")
        .set({ failing_since: sql`now() - interval '25 hours'` })
        .where("id", "=", sub.id)
        .execute();
      await makeDue();
      await runDueJobs(jobs);
      const s = await db()
        .selectFrom("webhook_subscriptions")
        .select(["status", "paused_at"])
        .where("id", "=", sub.id)
        .executeTakeFirstOrThrow();
      expect(s.status).toBe("paused");
      expect(s.paused_at).not.toBeNull();
      expect(
        await db()
          .selectFrom("jobs")
          .select("id")
          .where("name", "=", "webhook-deliver")
          .where("status", "=", "pending")
          .execute(),
      ).toEqual([]);
      const { enqueued } = await newToken(5);
      expect(enqueued).toBe(0); // paused subscriptions receive nothing new
    } finally {
      delete process.env.WEBHOOK_TIMEOUT_MS;
      resetConfig();
    }
  });

  it("refuses at delivery time a target that became internal (private targets disallowed later)", async () => {
    receiver.handle(() => ({ status: 200 }));
    const sub = (await register({ url: `${receiver.url}/later` })).body;
    setAllowPrivate("false");
    try {
      const before = receiver.requests.length;
      await newToken(6);
      await runDueJobs(jobs);
      expect(receiver.requests.length).toBe(before);
      const log = await db()
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("subscription_id", "=", sub.id)
        .execute();
      expect(log).toMatchObject([{ attempt: 1, status: "failed", response_code: null }]);
      expect(log[0].error).toMatch(/https|internal/);
    } finally {
      setAllowPrivate("true");
    }
  });
});
