// GET /api/cron/[schedule]: Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, others enqueue a schedule.
import { z } from "zod";
import { route } from "@/lib/http/route";
import { cronResult, runCron } from "@/lib/platform/jobs/cron";
import { jobs } from "@/lib/domains/jobs";

export const maxDuration = 60;

export const GET = route({
  auth: "cron",
  summary: "Run a cron schedule",
  description:
    "Called by Vercel cron with `Authorization: Bearer CRON_SECRET`. `dispatch` sweeps the job outbox to QStash; any other schedule name (vercel.json lists them) enqueues that schedule's job. 404 for an unknown schedule.",
  response: cronResult,
  params: z.object({ schedule: z.string().describe("`dispatch`, or a schedule's name (vercel.json `crons`)") }),
  handler: ({ params }) => runCron(jobs, params.schedule),
});
