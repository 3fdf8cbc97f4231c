// GET /api/health: version, database, backends, and whether background work keeps up; 503 when the database is down.
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { healthReport, healthResponse } from "@/lib/platform/health";
import { INDEXER_JOBS } from "@/lib/domains/operations/streams";
import { jobs } from "@/lib/domains/jobs";

export const GET = route({
  auth: "public",
  summary: "Check the service's health",
  description:
    "The running version, whether the database answers (and how fast), and which backend serves each part: database, cache and rate limits, jobs, chain, profiles; and how many chain events the indexer set aside (quarantined) are still open. `status` is `degraded` (still 200) when background work does not keep up, with one `reasons` entry per cause: `indexer_lagging` (an indexer's job has not succeeded for INDEXER_MAX_LAG_MINUTES), `schedule_missing` (a schedule enqueued none of its last three runs), `job_failed` (a job failed for good in the last day and GET /api/admin/status has not listed it yet), `quarantined_events` (a set-aside chain event is open). Read from the database only. 503 with Retry-After when the database does not answer.",
  response: healthResponse,
  cache: cachePolicy.none,
  handler: () => healthReport({ jobs, indexers: INDEXER_JOBS }),
});
export const OPTIONS = preflight;
