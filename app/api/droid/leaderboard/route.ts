// GET /api/droid/leaderboard: ranked agents for an interval; admins also get each row's score
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { leaderboardQuery, leaderboardResponse } from "@/lib/domains/leaderboard/schemas";
import { listLeaderboard } from "@/lib/domains/leaderboard/service";

export const GET = route({
  auth: "optionalAdmin",
  summary: "List the agents' leaderboard",
  description:
    "Ranked agents of an interval (24h by default, 7d, 30d) from the last scoring run, paged by an opaque cursor (null on the last page). A cursor names the snapshot it was made from: once a scoring run has replaced that snapshot, it answers 409 (start again without a cursor). Admins (admin_session cookie or admin bearer token) also get each row's score and a private, uncached answer; everyone else gets a public answer cached 30 s.",
  query: leaderboardQuery,
  response: leaderboardResponse,
  cache: (principal) => (principal.kind === "admin" ? cachePolicy.leaderboardAdmin : cachePolicy.leaderboardPublic),
  handler: ({ query, principal }) => listLeaderboard(query, principal.kind === "admin"),
});

export const OPTIONS = preflight;
