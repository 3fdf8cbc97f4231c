// Retention: a settled job row (done or failed) is history, not state. Once it is older than
// JOB_RETENTION_DAYS it is deleted, daily, in bounded batches. Dedupe keys of settled rows stop guarding
// then, which is safe: every key in use names a time bucket or a row that is only ever enqueued once.
// Domains that keep history of their own (market snapshots) list a prune in their job set; the same daily run
// calls each of them after the jobs' own.
import { z } from "zod";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { defineJob } from "./define";
import { deleteSettledJobs } from "./queries";
import type { JobSet } from "./registry";
import { defineSchedule } from "./schedule";

const BATCH_ROWS = 5_000;
const MAX_BATCHES = 200; // one run deletes at most 1,000,000 rows; the next run goes on

export async function pruneSettledJobs(olderThanDays = config().JOB_RETENTION_DAYS): Promise<{ deleted: number }> {
  const cutoff = new Date(Date.now() - olderThanDays * 86_400_000);
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const numDeletedRows = await deleteSettledJobs(db(), cutoff, BATCH_ROWS);
    deleted += Number(numDeletedRows);
    if (numDeletedRows < BigInt(BATCH_ROWS)) break;
  }
  return { deleted };
}

/** A domain's prune of its own history: deletes what is past its retention, returns how many rows went. */
export type Retention = { name: string; prune: () => Promise<{ deleted: number }> };

/** The jobs' prune, then each given one: rows deleted per name. */
export async function pruneAll(retentions: readonly Retention[]): Promise<Record<string, number>> {
  const deleted: Record<string, number> = { jobs: (await pruneSettledJobs()).deleted };
  for (const { name, prune } of retentions) deleted[name] = (await prune()).deleted;
  return deleted;
}

/** The daily "jobs-prune" job and schedule: the settled rows, then the history each set's retentions prune. */
export function pruneJobs(sets: readonly JobSet[]): JobSet {
  const retentions = sets.flatMap((set) => set.retentions ?? []);
  const job = defineJob({
    name: "jobs-prune",
    schema: z.object({}),
    maxAttempts: 1, // tomorrow's run deletes what this one did not
    handle: () => pruneAll(retentions),
  });
  return { jobs: [job], schedules: [defineSchedule({ name: "jobs-prune", everySeconds: 86_400, job, payload: {} })] };
}
