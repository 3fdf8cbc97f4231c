// GET /api/health: the report, who runs jobs (QSTASH_TOKEN, JOB_WORKER), 503 when the database is down, and
// "degraded" with a reason for a lagging indexer, a silent schedule, a failed job and a set-aside chain event.
import { afterEach, describe, expect, it } from "vitest";
import { GET, OPTIONS } from "@/app/api/health/route";
import { closeDb, db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueueSchedule } from "@/lib/platform/jobs/schedule";
import { quarantineEvent } from "@/lib/platform/quarantine";
import { INDEXER_JOBS } from "@/lib/domains/operations/streams";
import { freezeDate } from "@/tests/helpers/clock";
import { call, expectError } from "@/tests/helpers/http";
import { jobs } from "@/lib/domains/jobs";

/** Runs `fn` with these environment variables (undefined: unset), then puts the old values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    resetConfig();
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

afterEach(() => resetConfig());

describe("GET /api/health", () => {
  it("reports the database reachable and the backends", async () => {
    const res = await call(GET, "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.database.reachable).toBe(true);
    expect(res.body.backends.database).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.backends.jobs).toBe("local-worker");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("names who runs jobs as JOB_WORKER and QSTASH_TOKEN say", async () => {
    const jobs = async (vars: Record<string, string | undefined>) =>
      withEnv(vars, async () => (await call(GET, "/api/health")).body.backends.jobs);
    expect(await jobs({ JOB_WORKER: "false" })).toBe("none");
    expect(await jobs({ JOB_WORKER: "true" })).toBe("local-worker");
    expect(await jobs({ QSTASH_TOKEN: "test-token" })).toBe("qstash");
    expect(await jobs({ QSTASH_TOKEN: "test-token", JOB_WORKER: "true" })).toBe("qstash+local-worker");
  });

  it("answers 503 provider_unavailable with Retry-After, naming the database, when the database does not answer", async () => {
    await closeDb();
    try {
      const res = await withEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/unreachable" }, async () => {
        try {
          return await call(GET, "/api/health");
        } finally {
          await closeDb();
        }
      });
      const error = expectError(res, 503, "provider_unavailable");
      expect(error.error).toMatch(/database/);
      expect(error.details).toEqual([
        expect.objectContaining({
          part: "database",
          reachable: false,
          backends: expect.objectContaining({ database: "postgres" }),
        }),
      ]);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("x-request-id")).toBe(error.requestId);
    } finally {
      resetConfig();
    }
    expect((await call(GET, "/api/health")).status).toBe(200);
  });

  it("answers a CORS preflight", async () => {
    const res = OPTIONS();
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });
});

const MINUTE = 60_000;

/** A settled row of job `name`, settled `ageMs` ago. */
async function settledJob(name: string, status: "done" | "failed", ageMs: number, lastError: string | null = null) {
  const at = new Date(Date.now() - ageMs);
  await db()
    .insertInto("jobs")
    .values({ name, payload: "{}", status, run_at: at, created_at: at, updated_at: at, last_error: lastError })
    .execute();
}

/**
 * A service that keeps up: four days of history, every schedule enqueued for the current bucket (but `silent`), and
 * each indexer's job done a minute ago.
 */
async function keepingUp(silent?: string) {
  await settledJob("history", "done", 4 * 1440 * MINUTE);
  for (const schedule of [...jobs.schedules.values()]) if (schedule.name !== silent) await enqueueSchedule(schedule);
  for (const job of INDEXER_JOBS) await settledJob(job, "done", MINUTE);
}

const health = async () => (await call(GET, "/api/health")).body;

describe("GET /api/health, degraded", () => {
  afterEach(async () => {
    await db().deleteFrom("jobs").execute();
    await db().deleteFrom("quarantined_events").execute();
  });

  it("says ok with no reasons while the background work keeps up", async () => {
    freezeDate();
    await keepingUp();
    expect(await health()).toMatchObject({ status: "ok", reasons: [] });
  });

  it("says degraded with schedule_missing when a schedule enqueued none of its last runs", async () => {
    freezeDate();
    await keepingUp("jobs-prune");
    const res = await call(GET, "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("degraded");
    expect(res.body.reasons).toEqual([{ code: "schedule_missing", message: expect.stringContaining("jobs-prune") }]);
  });

  it("says degraded with indexer_lagging when an indexer has not succeeded within INDEXER_MAX_LAG_MINUTES", async () => {
    freezeDate();
    await keepingUp();
    await db().deleteFrom("jobs").where("name", "=", "token-index").where("status", "=", "done").execute();
    await settledJob("token-index", "done", 11 * MINUTE);
    await settledJob("token-index", "failed", MINUTE, "the chain did not answer");
    await db().updateTable("jobs").set({ seen_at: new Date() }).where("status", "=", "failed").execute();
    const body = await health();
    expect(body.status).toBe("degraded");
    expect(body.reasons).toEqual([
      { code: "indexer_lagging", message: "no successful run of token-index in the last 10 minutes" },
    ]);
    await withEnv({ INDEXER_MAX_LAG_MINUTES: "12" }, async () =>
      expect(await health()).toMatchObject({ status: "ok", reasons: [] }),
    );
  });

  it("says degraded with job_failed when a job failed for good in the last day", async () => {
    freezeDate();
    await keepingUp();
    await settledJob("deploy-token", "failed", 23 * 60 * MINUTE, "execution reverted");
    const body = await health();
    expect(body.status).toBe("degraded");
    expect(body.reasons).toEqual([
      {
        code: "job_failed",
        message: "jobs failed for good in the last day, not seen yet: 1 (GET /api/admin/status lists them)",
      },
    ]);
    // A failure older than a day no longer degrades the check (the operator view still lists it until seen).
    await db().deleteFrom("jobs").where("status", "=", "failed").execute();
    await settledJob("deploy-token", "failed", 25 * 60 * MINUTE, "execution reverted");
    expect((await health()).status).toBe("ok");
  });

  it("says degraded with quarantined_events while a set-aside chain event is open", async () => {
    freezeDate();
    await keepingUp();
    await quarantineEvent(db(), {
      stream: "token-created",
      chainId: 8453,
      address: `0x${"ab".repeat(20)}`,
      blockNumber: 100,
      logIndex: 0,
      txHash: `0x${"cd".repeat(32)}`,
      reason: "undecodable",
      error: "not a TokenCreated event",
    });
    const body = await health();
    expect(body).toMatchObject({ status: "degraded", quarantinedEvents: 1 });
    expect(body.reasons).toEqual([
      { code: "quarantined_events", message: expect.stringContaining("open set-aside chain events: 1") },
    ]);
  });
});
