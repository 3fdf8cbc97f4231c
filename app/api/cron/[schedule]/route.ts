// GET /api/cron/[schedule]: Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, others enqueue a schedule.
import { z } from "zod";
import { route } from "@/lib/http/route";
import { cronResult, runCron } from "@/lib/platform/jobs/cron";
import "@/lib/domains/jobs";

export const GET = route({
  auth: "cron",
  summary:
    "Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, any other schedule name enqueues its job",
  response: cronResult,
  params: z.object({ schedule: z.string() }),
  handler: ({ params }) => runCron(params.schedule),
});
