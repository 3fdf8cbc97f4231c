// GET /api/search-creator: creators matching a name, handle or address, their tokens with trustStatus
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { searchCreatorQuery } from "@/lib/domains/creators/schemas";
import { searchCreators } from "@/lib/domains/creators/search";
import { searchCreatorResponse } from "@/lib/domains/creators/responses";

export const GET = route({
  auth: "public",
  summary: "Search creators",
  description:
    "Creators whose username, display name or handle starts with `q`, or who hold the address `q` (verified or as deployer), with their tokens; each token carries its trust status (trusted-token and trusted-deployer lists) and the requester's verified addresses. `total` is exact up to 1,000 and estimated above.",
  query: searchCreatorQuery,
  response: searchCreatorResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => searchCreators(query),
});
export const OPTIONS = preflight;
