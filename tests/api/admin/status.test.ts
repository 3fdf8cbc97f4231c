// GET /api/admin/status: indexer progress against each chain's head (a chain that does not answer is reported, not a
// 500), schedules and whether QStash holds them, failed jobs (listed as seen, so the prune may then delete them), set-
// aside events, the webhook backlog; the admin auth matrix.
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { custom } from "viem";
import { GET as status } from "@/app/api/admin/status/route";
import { GET as health } from "@/app/api/health/route";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { setChainTransport } from "@/lib/platform/chain";
import { pruneSettledJobs } from "@/lib/platform/jobs/retention";
import { cronTargets } from "@/lib/platform/jobs/schedule";
import { quarantineEvent } from "@/lib/platform/quarantine";
import { authMatrix, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { freezeDate } from "@/tests/helpers/clock";
import { call } from "@/tests/helpers/http";
import { startFakeQStash, type FakeQStash } from "@/tests/helpers/qstash";
import { jobs } from "@/lib/domains/jobs";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = "https://svc.example";
const FACTORY = "0x1111111111111111111111111111111111111111";
const LOCKER = "0x2222222222222222222222222222222222222222";

let issuer: Issuer;
let qstash: FakeQStash;

beforeAll(async () => {
  issuer = await startIssuer();
  qstash = await startFakeQStash();
  // 8453 answers at block 1000 (and 84532 never answers, in the one test that waits for it).
  setChainTransport(8453, custom({ request: async ({ method }) => (method === "eth_blockNumber" ? "0x3e8" : null) }));
});
afterAll(async () => {
  setChainTransport(8453, undefined);
  for (const name of ["QSTASH_URL", "QSTASH_TOKEN", "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"])
    delete process.env[name];
  delete process.env.PUBLIC_BASE_URL;
  resetConfig();
  await qstash.close();
  await issuer.close();
});
beforeEach(async () => {
  for (const table of ["jobs", "quarantined_events", "chain_checkpoints"] as const)
    await db().deleteFrom(table).execute();
  qstash.schedules.clear();
});

const asAdmin = async () =>
  call(status, "/api/admin/status", { headers: { authorization: `Bearer ${await issuer.token(1)}` } });

async function job(values: {
  name: string;
  status: string;
  ageMs: number;
  lastError?: string;
  seen?: boolean;
  lane?: string;
}) {
  const at = new Date(Date.now() - values.ageMs);
  const [row] = await db()
    .insertInto("jobs")
    .values({
      name: values.name,
      payload: "{}",
      status: values.status as "done",
      lane: values.lane ?? "default",
      run_at: at,
      created_at: at,
      updated_at: at,
      last_error: values.lastError ?? null,
      seen_at: values.seen ? at : null,
    })
    .returning("id")
    .execute();
  return row!.id;
}

describe("GET /api/admin/status", () => {
  authMatrix(
    "admin",
    (headers) => call(status, "/api/admin/status", { headers }),
    () => issuer,
  );

  it("reports each stream's checkpoint against its chain's head, and a chain that does not answer", async () => {
    setChainTransport(84532, custom({ request: () => new Promise(() => {}) }));
    onTestFinished(() => setChainTransport(84532, undefined));
    await db()
      .insertInto("chain_checkpoints")
      .values([
        { stream: "token-created", chain_id: 8453, address: FACTORY, block: 900 },
        { stream: "token-created", chain_id: 84532, address: FACTORY, block: 50 },
        { stream: "token-created", chain_id: 10, address: FACTORY, block: 7 },
      ])
      .execute();
    await db()
      .insertInto("chain_checkpoints")
      .values({ stream: "fee-claims", chain_id: 8453, address: LOCKER, block: 998 })
      .execute();
    const res = await asAdmin();
    expect(res.status, res.text).toBe(200);
    // 10 has no RPC at all.
    expect(res.body.chains).toEqual([
      { chainId: 10, head: null, error: "no RPC_URL_10" },
      { chainId: 8453, head: 1000, error: null },
      { chainId: 84532, head: null, error: "no answer within 2000 ms" },
    ]);
    const streams = res.body.streams.map((s: any) => [
      s.stream,
      s.chainId,
      s.contract,
      s.indexedBlock,
      s.chainHead,
      s.lagBlocks,
    ]);
    expect(streams).toEqual([
      ["token-created", 10, FACTORY, 7, null, null],
      ["token-created", 8453, FACTORY, 900, 1000, 100],
      ["token-created", 84532, FACTORY, 50, null, null],
      ["fee-claims", 8453, LOCKER, 998, 1000, 2],
    ]);
    expect(res.body.streams[0].updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("lists every schedule with its job's last success, and without QStash checks none", async () => {
    freezeDate();
    await job({ name: "token-index", status: "done", ageMs: 2 * 60_000 });
    await job({ name: "token-index", status: "done", ageMs: HOUR });
    const { schedules, qstash: check } = (await asAdmin()).body;
    expect(schedules.map((s: any) => s.name)).toEqual(cronTargets(jobs).map((t) => t.name));
    const byName = Object.fromEntries(schedules.map((s: any) => [s.name, s]));
    expect(byName["token-index"]).toEqual({
      name: "token-index",
      path: "/api/cron/token-index",
      cron: "* * * * *",
      calledBy: "qstash",
      lastSuccessAt: new Date(Date.now() - 2 * 60_000).toISOString(),
      inQStash: null,
    });
    expect(byName["jobs-prune"]).toMatchObject({ calledBy: "vercel", lastSuccessAt: null, inQStash: null });
    expect(byName.dispatch).toMatchObject({ calledBy: "qstash", lastSuccessAt: null });
    expect(check).toEqual({ checked: false, error: "QSTASH_TOKEN is not set" });
  });

  it("tells which QStash schedules exist, are paused or are missing (QStash's schedules list)", async () => {
    qstash.useInService();
    process.env.PUBLIC_BASE_URL = BASE;
    resetConfig();
    try {
      const seed = (name: string, destination: string, isPaused = false) =>
        qstash.schedules.set(name, {
          scheduleId: name,
          cron: "* * * * *",
          destination,
          method: "GET",
          header: {},
          retries: 2,
          createdAt: Date.now(),
          isPaused,
        });
      seed("a", `${BASE}/api/cron/token-index`);
      seed("b", `${BASE}/api/cron/dispatch`, true);
      seed("c", "https://other.example/api/cron/earnings-index");
      const { schedules, qstash: check } = (await asAdmin()).body;
      const inQStash = Object.fromEntries(schedules.map((s: any) => [s.name, s.inQStash]));
      expect(check).toEqual({ checked: true, error: null });
      expect(inQStash["token-index"]).toBe("present");
      expect(inQStash.dispatch).toBe("paused");
      expect(inQStash["earnings-index"]).toBe("missing");
      expect(inQStash["jobs-prune"]).toBeNull(); // a Vercel cron, not QStash's
      expect(qstash.server.requests.some((r) => r.method === "GET" && r.path === "/v2/schedules")).toBe(true);

      process.env.QSTASH_TOKEN = "a-wrong-token";
      resetConfig();
      const refused = (await asAdmin()).body;
      expect(refused.qstash.checked).toBe(false);
      expect(refused.qstash.error).toMatch(/Unauthorized/);
      expect(refused.schedules.every((s: any) => s.inQStash === null)).toBe(true);
    } finally {
      for (const name of ["QSTASH_URL", "QSTASH_TOKEN", "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"])
        delete process.env[name];
      delete process.env.PUBLIC_BASE_URL;
      resetConfig();
    }
  });

  it("lists failed jobs as seen: health stops counting them and the prune may then delete the old ones", async () => {
    freezeDate();
    const recent = await job({ name: "deploy-token", status: "failed", ageMs: HOUR, lastError: "execution reverted" });
    const oldUnseen = await job({ name: "index-token", status: "failed", ageMs: 20 * DAY, lastError: "gone" });
    await job({ name: "index-token", status: "failed", ageMs: 21 * DAY, lastError: "seen before", seen: true });
    await job({ name: "token-index", status: "done", ageMs: 60_000 });

    expect((await call(health, "/api/health")).body.reasons.map((r: any) => r.code)).toContain("job_failed");
    expect(await pruneSettledJobs()).toEqual({ deleted: 1 }); // the seen one only

    const res = await asAdmin();
    expect(res.body.failedJobs).toEqual([
      {
        id: recent,
        job: "deploy-token",
        attempts: 0,
        lastError: "execution reverted",
        failedAt: new Date(Date.now() - HOUR).toISOString(),
      },
      {
        id: oldUnseen,
        job: "index-token",
        attempts: 0,
        lastError: "gone",
        failedAt: new Date(Date.now() - 20 * DAY).toISOString(),
      },
    ]);
    expect(res.body.health.reasons.map((r: any) => r.code)).not.toContain("job_failed");
    expect((await call(health, "/api/health")).body.reasons.map((r: any) => r.code)).not.toContain("job_failed");

    expect(await pruneSettledJobs()).toEqual({ deleted: 1 }); // the old one, now seen
    const left = await db().selectFrom("jobs").select("id").where("status", "=", "failed").execute();
    expect(left.map((r) => r.id)).toEqual([recent]);
    // Seen once: a second view lists the recent one again (it failed within the day), not the pruned one.
    expect((await asAdmin()).body.failedJobs.map((f: any) => f.id)).toEqual([recent]);
  });

  it("counts open quarantined events and the webhook backlog", async () => {
    freezeDate();
    await quarantineEvent(db(), {
      stream: "token-created",
      chainId: 8453,
      address: FACTORY,
      blockNumber: 10,
      logIndex: 1,
      txHash: `0x${"ef".repeat(32)}`,
      reason: "unstorable",
      error: "value too long",
    });
    await job({ name: "webhook-deliver", status: "pending", ageMs: 5 * 60_000, lane: "webhooks" });
    await job({ name: "webhook-deliver", status: "dispatched", ageMs: HOUR, lane: "webhooks" });
    await job({ name: "webhook-deliver", status: "pending", ageMs: -HOUR, lane: "webhooks" });
    await job({ name: "webhook-deliver", status: "done", ageMs: HOUR, lane: "webhooks" });
    await job({ name: "token-index", status: "pending", ageMs: HOUR });
    const body = (await asAdmin()).body;
    expect(body.quarantinedEvents).toBe(1);
    expect(body.webhookBacklog).toEqual({ queued: 3, due: 2, oldestDueAt: new Date(Date.now() - HOUR).toISOString() });
    expect(body.health.status).toBe("degraded");
    expect(body.health.reasons.map((r: any) => r.code)).toContain("quarantined_events");
  });
});
