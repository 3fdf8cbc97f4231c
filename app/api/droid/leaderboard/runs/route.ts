// GET /api/droid/leaderboard/runs: agents' runs per hour or day over a scoring window (the leaderboard's sparklines)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { runSeriesQuery, runSeriesResponse } from "@/lib/domains/leaderboard/schemas";
import { runSeries } from "@/lib/domains/leaderboard/service";

export const GET = route({
  auth: "public",
  summary: "Get agents' runs over time",
  description:
    "For each asked agent (at most 100), its succeeded and failed runs per bucket over the interval's scoring window: 24 hourly buckets for 24h, daily buckets for 7d and 30d. The window ends when the interval's leaderboard was last scored (now when it never was), so the series match the ranked rows. Cached 30 s at the edge.",
  query: runSeriesQuery,
  response: runSeriesResponse,
  cache: cachePolicy.leaderboardRuns,
  handler: ({ query }) => runSeries(query),
});
export const OPTIONS = preflight;
