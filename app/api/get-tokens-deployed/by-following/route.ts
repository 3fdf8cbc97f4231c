// GET /api/get-tokens-deployed/by-following: tokens launched by the accounts a FID follows, newest first
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { byFollowingQuery } from "@/lib/domains/creators/schemas";
import { tokensByFollowing } from "@/lib/domains/creators/following";
import { byFollowingResponse } from "@/lib/domains/creators/responses";

export const GET = route({
  auth: "public",
  summary: "List tokens of the accounts a FID follows",
  description:
    "Tokens launched by the accounts the FID follows (from the profile provider's following list, stored), newest first, at most `limit`; with `includeUser`, each token's creator profile.",
  query: byFollowingQuery,
  response: byFollowingResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => tokensByFollowing(query),
});
export const OPTIONS = preflight;
