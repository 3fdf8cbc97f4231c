// GET /api/admin/status: the operator view of indexers, schedules, failed jobs, set-aside events and webhook backlog.
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { jobs } from "@/lib/domains/jobs";
import { operatorStatus, operatorStatusResponse } from "@/lib/domains/operations/status";

export const maxDuration = 60;

export const GET = route({
  auth: "admin",
  summary: "Show what the background work is doing",
  description:
    "Per chain and event stream: the indexed block (checkpoint), the chain's head and the lag in blocks; a chain that does not answer within 2 s has a null head and its error. Per schedule: who calls it, its job's last successful run and, with QStash configured, whether QStash holds a schedule calling it. Jobs that failed in the last day (and older ones not listed before), with their last error: listing marks them seen, and the daily prune deletes failed jobs only once seen. Open quarantined events, the webhook delivery backlog, and the health check's status and reasons. Admin session or admin user token.",
  response: operatorStatusResponse,
  cache: cachePolicy.none,
  handler: () => operatorStatus(jobs),
});
