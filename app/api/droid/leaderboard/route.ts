// GET /api/droid/leaderboard: ranked agents for an interval; admins also get each row's score
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { leaderboardQuery } from "@/lib/leaderboard/schemas";
import { listLeaderboard } from "@/lib/leaderboard/service";

export const GET = route({
  auth: "optionalAdmin",
  query: leaderboardQuery,
  cache: (principal) => (principal.kind === "admin" ? cachePolicy.leaderboardAdmin : cachePolicy.leaderboardPublic),
  handler: ({ query, principal }) => listLeaderboard(query, principal.kind === "admin"),
});

export const OPTIONS = preflight;
