// GET /api/health: version, database reachability and the active backend of each part; 503 when the database is down.
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { healthReport, healthResponse } from "@/lib/platform/health";

export const GET = route({
  auth: "public",
  summary: "Check the service's health",
  description:
    "The running version, whether the database answers (and how fast), and which backend serves each part: database, cache and rate limits, jobs, chain, profiles; and how many chain events the indexer set aside (quarantined) are still open. 503 with Retry-After when the database does not answer.",
  response: healthResponse,
  cache: cachePolicy.none,
  handler: () => healthReport(),
});
export const OPTIONS = preflight;
