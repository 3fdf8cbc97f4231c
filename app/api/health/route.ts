// GET /api/health: version, database reachability and the active backend of each part; 503 when the database is down.
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { healthReport, healthResponse } from "@/lib/platform/health";

export const GET = route({
  auth: "public",
  summary: "Version, whether the database answers, and the active backend of each part",
  response: healthResponse,
  cache: cachePolicy.none,
  handler: () => healthReport(),
});
export const OPTIONS = preflight;
