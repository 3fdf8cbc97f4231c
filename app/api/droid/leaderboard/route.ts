// GET /api/droid/leaderboard: ranked agents for an interval; admins also get each row's score
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { leaderboardQuery, leaderboardResponse } from "@/lib/domains/leaderboard/schemas";
import { listLeaderboard } from "@/lib/domains/leaderboard/service";

export const GET = route({
  auth: "optionalAdmin",
  summary:
    "Ranked agents of an interval (24h, 7d default, 30d), paged by an opaque cursor; admins also get each row's score",
  query: leaderboardQuery,
  response: leaderboardResponse,
  cache: (principal) => (principal.kind === "admin" ? cachePolicy.leaderboardAdmin : cachePolicy.leaderboardPublic),
  handler: ({ query, principal }) => listLeaderboard(query, principal.kind === "admin"),
});

export const OPTIONS = preflight;
