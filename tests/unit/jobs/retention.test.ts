// Retention: the daily prune deletes settled rows past JOB_RETENTION_DAYS (failed ones only once an operator has seen
// them) and nothing else.
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { pruneSettledJobs } from "@/lib/platform/jobs/retention";
import { jobs } from "@/lib/domains/jobs";

const DAY = 86_400_000;

async function insertJob(key: string, status: string, ageDays: number, seen = false) {
  const at = new Date(Date.now() - ageDays * DAY);
  await db()
    .insertInto("jobs")
    .values({
      name: "test-retention",
      payload: JSON.stringify({}),
      status,
      dedupe_key: key,
      created_at: at,
      updated_at: at,
      run_at: at,
      seen_at: seen ? at : null,
    } as any)
    .execute();
}

describe("jobs retention", () => {
  it("deletes done and seen failed rows older than the retention, keeps recent, unseen and unsettled ones", async () => {
    const days = config().JOB_RETENTION_DAYS;
    await insertJob("old-done", "done", days + 1);
    await insertJob("old-failed", "failed", days + 30, true);
    await insertJob("old-failed-unseen", "failed", days + 30);
    await insertJob("new-done", "done", days - 1);
    for (const status of ["pending", "running", "dispatched"]) await insertJob(`old-${status}`, status, days + 5);

    expect(await pruneSettledJobs()).toEqual({ deleted: 2 });
    const left = await db()
      .selectFrom("jobs")
      .select("dedupe_key")
      .where("name", "=", "test-retention")
      .orderBy("dedupe_key")
      .execute();
    expect(left.map((r) => r.dedupe_key)).toEqual([
      "new-done",
      "old-dispatched",
      "old-failed-unseen",
      "old-pending",
      "old-running",
    ]);
    expect(await pruneSettledJobs()).toEqual({ deleted: 0 });
  });

  it("works through more rows than one batch", async () => {
    await sql`
      INSERT INTO jobs (name, payload, status, updated_at)
      SELECT 'test-retention-bulk', '{}'::jsonb, 'done', now() - interval '400 days' FROM generate_series(1, 12000)
    `.execute(db());
    expect(await pruneSettledJobs(365)).toEqual({ deleted: 12_000 });
  });

  it("runs daily as the jobs-prune schedule (a Vercel cron)", () => {
    expect(jobs.schedules.get("jobs-prune")?.everySeconds).toBe(86_400);
  });
});
