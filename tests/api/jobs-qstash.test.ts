// The production path through the QStash stand-in: publish → signed delivery → /api/jobs/[job] → job done;
// duplicates, delays, flow control for jobs with a concurrency key, and the cron sweep recovering rows a crash
// left behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { defineJob, enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { STALE_DISPATCH_SECONDS } from "@/lib/platform/jobs/outbox";
import { deliverWebhookJob } from "@/lib/domains/webhooks/jobs";
import { POST } from "@/app/api/jobs/[job]/route";
import { GET as cron } from "@/app/api/cron/[schedule]/route";
import { call } from "@/tests/helpers/http";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";
import { startFakeQStash, type FakeQStash } from "@/tests/helpers/qstash";
import { addTestJobs } from "@/tests/helpers/jobs";

// The routes see this file's jobs beside the server's.
vi.mock("@/lib/domains/jobs", async () => (await import("@/tests/helpers/jobs")).serverJobsAnd());

const CRON_SECRET = "test-cron-secret-0123456789";
const effects = new Map<string, number>();
let failuresLeft = 0;

const work = defineJob({
  name: "test-qstash-work",
  schema: z.object({ key: z.string() }),
  handle: async ({ key }) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new Error("upstream unavailable");
    }
    effects.set(key, (effects.get(key) ?? 0) + 1);
  },
});

let keyedActive = 0;
let keyedPeak = 0;
const keyed = defineJob({
  name: "test-qstash-keyed",
  schema: z.object({ key: z.string() }),
  lane: "webhooks",
  concurrencyKey: () => "test-qstash-one-key",
  handle: async ({ key }) => {
    keyedPeak = Math.max(keyedPeak, ++keyedActive);
    await new Promise((resolve) => setTimeout(resolve, 100));
    keyedActive--;
    effects.set(key, (effects.get(key) ?? 0) + 1);
  },
});
addTestJobs({ jobs: [work, keyed] });

let qstash: FakeQStash;
let app: FakeServer;

const row = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const sweep = () =>
  call(cron, "/api/cron/dispatch", {
    headers: { authorization: `Bearer ${CRON_SECRET}` },
    params: { schedule: "dispatch" },
  });

beforeAll(async () => {
  qstash = await startFakeQStash({ delayScale: 0 });
  // The deployed service as QStash sees it: an HTTP server whose /api/jobs/<name> is the route handler.
  app = await startFakeServer(async (req) => {
    const job = req.path.split("/").pop()!;
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
    );
    const request = new Request(`${app.url}${req.path}`, { method: req.method, headers, body: req.body });
    const res = await POST(request, { params: Promise.resolve({ job }) });
    return { status: res.status, text: await res.text(), headers: { "content-type": "application/json" } };
  });
  process.env.PUBLIC_BASE_URL = app.url;
  process.env.CRON_SECRET = CRON_SECRET;
  qstash.useInService();
});

afterAll(async () => {
  await qstash.close();
  await app.close();
  for (const k of [
    "PUBLIC_BASE_URL",
    "CRON_SECRET",
    "QSTASH_URL",
    "QSTASH_TOKEN",
    "QSTASH_CURRENT_SIGNING_KEY",
    "QSTASH_NEXT_SIGNING_KEY",
  ])
    delete process.env[k];
  resetConfig();
});

beforeEach(async () => {
  await qstash.idle();
  await db().deleteFrom("jobs").execute();
  effects.clear();
  failuresLeft = 0;
});

describe("jobs through QStash", () => {
  it("publishes a committed job, receives the signed delivery and runs it", async () => {
    const { id } = await db()
      .transaction()
      .execute((trx) => enqueue(work, { key: "full-path" }, { db: trx }));
    await dispatchJobs();
    const [message] = qstash.messages;
    expect(message.destination).toBe(`${app.url}/api/jobs/test-qstash-work`);
    expect(JSON.parse(message.body)).toEqual({ id });
    expect(message.deduplicationId).toBe(`job-${id}`);
    expect(message.headers["upstash-retries"]).toBe("3");
    await qstash.idle();
    expect(qstash.deliveries).toContainEqual({ messageId: message.messageId, retried: 0, status: 200 });
    expect(await row(id)).toMatchObject({ status: "done", attempts: 1 });
    expect(effects.get("full-path")).toBe(1);
  });

  it("has one effect when QStash delivers the same message twice, or the publish is repeated", async () => {
    const { id } = await enqueue(work, { key: "duplicate" });
    await dispatchJobs();
    await qstash.idle();
    const [message] = qstash.messages.slice(-1);
    expect(await qstash.redeliver(message.messageId)).toBe(200);
    // A publish repeated after a crash (row still pending) carries the same deduplication id: dropped.
    await db().updateTable("jobs").set({ status: "pending", attempts: 0 }).where("id", "=", id).execute();
    const before = qstash.messages.length;
    await dispatchJobs();
    expect(qstash.messages.length).toBe(before);
    expect(effects.get("duplicate")).toBe(1);
  });

  it("lets QStash retry a transient failure until the job succeeds", async () => {
    failuresLeft = 1;
    const { id } = await enqueue(work, { key: "retried" });
    // QStash's first retry comes 12 s later, after our 2 s backoff: the stand-in retries at once, so
    // move the row's run_at as that wait would have.
    qstash.beforeRetry = () =>
      db()
        .updateTable("jobs")
        .set({ run_at: sql`now()` })
        .where("id", "=", id)
        .execute()
        .then(() => {});
    try {
      await dispatchJobs();
      await qstash.idle();
    } finally {
      qstash.beforeRetry = undefined;
    }
    const statuses = qstash.deliveries
      .filter((d) => d.messageId === qstash.messages.at(-1)!.messageId)
      .map((d) => d.status);
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect(await row(id)).toMatchObject({ status: "done", last_error: null });
    expect(effects.get("retried")).toBe(1);
  });

  it("publishes a webhook delivery under its subscription's flow-control key with parallelism 1, other jobs without one", async () => {
    const subscriptionId = "7d4a3c1e-2b5f-4e8a-9c6d-0f1e2d3c4b5a";
    const delivery = { subscriptionId, deliveryId: "whd_flow", event: "token.created" as const, attempt: 1, data: {} };
    const hook = await enqueue(deliverWebhookJob, delivery);
    const plain = await enqueue(work, { key: "no-flow-control" });
    await dispatchJobs();
    const messageOf = (id: number) => qstash.messages.find((m) => JSON.parse(m.body).id === id)!;
    expect(messageOf(hook.id).headers["upstash-flow-control-key"]).toBe(`webhook-${subscriptionId}`);
    expect(messageOf(hook.id).flowControl).toEqual({ key: `webhook-${subscriptionId}`, parallelism: 1 });
    expect(messageOf(plain.id).headers["upstash-flow-control-key"]).toBeUndefined();
    await qstash.idle();
    expect(await row(hook.id)).toMatchObject({ status: "done", result: { skipped: "deleted" } }); // no such subscription
  });

  it("runs the jobs of one concurrency key one at a time: QStash holds the next message until the last one answered", async () => {
    keyedPeak = 0;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await enqueue(keyed, { key: `keyed-${i}` })).id);
    await dispatchJobs();
    await qstash.idle();
    for (const id of ids) expect(await row(id)).toMatchObject({ status: "done", attempts: 1 });
    expect(keyedPeak).toBe(1);
    const mine = new Set(qstash.messages.filter((m) => ids.includes(JSON.parse(m.body).id)).map((m) => m.messageId));
    expect(qstash.deliveries.filter((d) => mine.has(d.messageId)).map((d) => d.status)).toEqual([200, 200, 200]);
  });

  it("publishes a delayed job with Upstash-Delay", async () => {
    await enqueue(work, { key: "delayed" }, { delaySeconds: 120 });
    await dispatchJobs();
    const delay = qstash.messages.at(-1)!.headers["upstash-delay"];
    expect(delay).toMatch(/^\d+s$/);
    expect(Number(delay.slice(0, -1))).toBeGreaterThan(100);
  });

  it("keeps a job due beyond QStash's longest delay pending until a sweep finds it within reach", async () => {
    const { id } = await enqueue(work, { key: "far" }, { delaySeconds: 30 * 86_400 });
    const before = qstash.messages.length;
    await dispatchJobs();
    expect((await sweep()).body).toEqual({ cron: "dispatch", published: 0, failed: 0 });
    expect(qstash.messages.length).toBe(before);
    expect((await row(id)).status).toBe("pending");
  });

  it("leaves a row pending when QStash is unreachable, and the cron sweep publishes it later", async () => {
    const gone = await startFakeServer(() => ({}));
    await gone.close();
    process.env.QSTASH_URL = gone.url; // nothing listens there any more
    resetConfig();
    const { id } = await enqueue(work, { key: "swept" });
    try {
      await dispatchJobs(); // does not throw: the row is committed, publishing is retried
    } finally {
      process.env.QSTASH_URL = qstash.url;
      resetConfig();
    }
    expect((await row(id)).status).toBe("pending");
    const res = await sweep();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cron: "dispatch", published: 1, failed: 0 });
    await qstash.idle();
    expect(await row(id)).toMatchObject({ status: "done" });
    expect(effects.get("swept")).toBe(1);
  });

  it("the sweep re-publishes a job whose runner died (expired lease) and one QStash gave up on", async () => {
    const orphan = await enqueue(work, { key: "orphan" });
    const lost = await enqueue(work, { key: "lost" });
    await db()
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, locked_until: sql`now() - interval '1 second'` })
      .where("id", "=", orphan.id)
      .execute();
    const stale = sql<Date>`now() - make_interval(secs => ${STALE_DISPATCH_SECONDS + 60})`;
    await db()
      .updateTable("jobs")
      .set({ status: "dispatched", attempts: 2, run_at: stale, updated_at: stale })
      .where("id", "=", lost.id)
      .execute();
    const fresh = await enqueue(work, { key: "in-flight" });
    await db().updateTable("jobs").set({ status: "dispatched" }).where("id", "=", fresh.id).execute();

    const before = qstash.messages.length;
    expect((await sweep()).body).toEqual({ cron: "dispatch", published: 2, failed: 0 });
    const ids = qstash.messages.slice(before).map((m) => m.deduplicationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^job-${orphan.id}-1-\\d+$`)),
        expect.stringMatching(new RegExp(`^job-${lost.id}-2-\\d+$`)),
      ]),
    );
    await qstash.idle();
    expect(await row(orphan.id)).toMatchObject({ status: "done", attempts: 2 });
    expect(await row(lost.id)).toMatchObject({ status: "done", attempts: 3 });
    expect(await row(fresh.id)).toMatchObject({ status: "dispatched", attempts: 0 });
    expect(effects.get("orphan")).toBe(1);
    expect(effects.get("lost")).toBe(1);
  });
});
