// GET /api/cron/[schedule]: Vercel cron (Bearer CRON_SECRET): `dispatch` sweeps the outbox to QStash, others enqueue a schedule.
import { z } from "zod";
import { route } from "@/lib/http/route";
import { runCron, verifyCronRequest } from "@/lib/jobs/cron";

export const GET = route({
  // The CRON_SECRET bearer is checked before anything else; it is not a user or partner credential.
  auth: "public",
  params: z.object({ schedule: z.string() }),
  handler: ({ request, params }) => (verifyCronRequest(request), runCron(params.schedule)),
});
