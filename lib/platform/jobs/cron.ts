// Vercel cron entry points: the outbox sweep and each schedule (route() checks the CRON_SECRET bearer Vercel sends).
import { z } from "zod";
import { notFound } from "@/lib/core/errors";
import { dispatchJobs } from "./dispatch";
import { sweepOutbox } from "./outbox";
import { qstashEnabled } from "./qstash";
import type { JobRegistry } from "./registry";
import { enqueueSchedule, SWEEP_CRON } from "./schedule";

export const cronResult = z.union([
  z
    .object({ cron: z.literal(SWEEP_CRON), published: z.number().int(), failed: z.number().int() })
    .describe("the outbox sweep"),
  z.object({
    cron: z.string(),
    job: z.string(),
    jobId: z.number().int(),
    bucket: z.number().int().describe("the schedule's time bucket"),
  }),
]);
export type CronResult = z.infer<typeof cronResult>;

/** `dispatch` publishes what the outbox holds; any other name enqueues that schedule's job for this bucket. */
export async function runCron(registry: JobRegistry, name: string): Promise<CronResult> {
  if (name === SWEEP_CRON) {
    if (!qstashEnabled()) return { cron: SWEEP_CRON, published: 0, failed: 0 };
    return { cron: SWEEP_CRON, ...(await sweepOutbox()) };
  }
  const schedule = registry.schedules.get(name);
  if (!schedule) throw notFound(`no schedule named ${name}`);
  const { id, bucket } = await enqueueSchedule(schedule);
  await dispatchJobs();
  return { cron: name, job: schedule.job.name, jobId: id, bucket };
}
