// GET /api/cron/[schedule]: only Vercel's CRON_SECRET bearer gets in; a schedule is enqueued once per bucket.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { GET } from "@/app/api/cron/[schedule]/route";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";
import { addTestJobs } from "@/tests/helpers/jobs";

// The routes see this file's jobs beside the server's.
vi.mock("@/lib/domains/jobs", async () => (await import("@/tests/helpers/jobs")).serverJobsAnd());

const SECRET = "test-cron-secret-0123456789";
let runs = 0;

const refresh = defineJob({
  name: "test-cron-refresh",
  schema: z.object({ scope: z.string() }),
  handle: async () => void runs++,
});
addTestJobs({
  jobs: [refresh],
  schedules: [
    defineSchedule({ name: "test-cron-refresh", everySeconds: 300, job: refresh, payload: { scope: "all" } }),
  ],
});

const hit = (schedule: string, authorization?: string) =>
  call(GET, `/api/cron/${schedule}`, { headers: authorization ? { authorization } : {}, params: { schedule } });
/** A schedule's answer (the route answers `dispatch` otherwise). */
const enqueued = (body: unknown) => body as { job: string; jobId: number; bucket: number };

beforeEach(async () => {
  process.env.CRON_SECRET = SECRET;
  resetConfig();
  await db().deleteFrom("jobs").execute();
  runs = 0;
});

afterAll(() => {
  delete process.env.CRON_SECRET;
  resetConfig();
});

describe("GET /api/cron/[schedule]", () => {
  it("answers 401 without the bearer, with a wrong one, or with the secret in another form", async () => {
    expectError(await hit("test-cron-refresh"), 401, "unauthorized");
    expectError(await hit("test-cron-refresh", "Bearer wrong-secret-0123456789"), 401, "unauthorized");
    expectError(await hit("test-cron-refresh", SECRET), 401, "unauthorized");
    expectError(await hit("dispatch", `Basic ${SECRET}`), 401, "unauthorized");
    expect(await db().selectFrom("jobs").select("id").execute()).toEqual([]);
  });

  it("answers 401 to everyone when CRON_SECRET is not configured", async () => {
    delete process.env.CRON_SECRET;
    resetConfig();
    expectError(await hit("test-cron-refresh", `Bearer ${SECRET}`), 401, "unauthorized");
    expectError(await hit("test-cron-refresh", "Bearer "), 401, "unauthorized");
  });

  it("enqueues the schedule's job once per bucket, however often the cron fires", async () => {
    freezeDate();
    const first = await hit("test-cron-refresh", `Bearer ${SECRET}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      cron: "test-cron-refresh",
      job: "test-cron-refresh",
      bucket: Math.floor(Date.now() / 300_000),
    });
    const second = await hit("test-cron-refresh", `Bearer ${SECRET}`);
    expect(enqueued(second.body).jobId).toBe(enqueued(first.body).jobId);
    await runDueJobs(jobs);
    expect(runs).toBe(1);
    const [job] = await db().selectFrom("jobs").select(["payload", "status", "dedupe_key"]).execute();
    expect(job).toEqual({
      payload: { scope: "all" },
      status: "done",
      dedupe_key: `schedule:test-cron-refresh:${enqueued(first.body).bucket}`,
    });
  });

  it("answers 404 for a schedule nobody defined", async () => {
    expectError(await hit("no-such-schedule", `Bearer ${SECRET}`), 404, "not_found");
  });

  it("runs the sweep as a no-op when QStash is not configured (the local worker owns the outbox)", async () => {
    const res = await hit("dispatch", `Bearer ${SECRET}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cron: "dispatch", published: 0, failed: 0 });
  });
});
