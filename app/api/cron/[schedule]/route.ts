// GET /api/cron/[schedule]: Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, others enqueue a schedule.
import { z } from "zod";
import { route } from "@/lib/http/route";
import { cronResult, runCron, verifyCronRequest } from "@/lib/platform/jobs/cron";

export const GET = route({
  // The CRON_SECRET bearer is checked before anything else; it is not a user or partner credential.
  auth: "public",
  summary: "Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, any other schedule name enqueues its job",
  response: cronResult,
  params: z.object({ schedule: z.string() }),
  handler: ({ request, params }) => (verifyCronRequest(request), runCron(params.schedule)),
});
