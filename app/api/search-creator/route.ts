// GET /api/search-creator: creators matching a name, handle or address, their tokens with trustStatus
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { searchCreatorQuery } from "@/lib/domains/users/creators/schemas";
import { searchCreators } from "@/lib/domains/users/creators/search";
import { searchCreatorResponse } from "@/lib/domains/users/creators/responses";

export const GET = route({
  auth: "public",
  summary: "Creators matching a name, handle or address, and their tokens with trustStatus",
  query: searchCreatorQuery,
  response: searchCreatorResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => searchCreators(query),
});
export const OPTIONS = preflight;
