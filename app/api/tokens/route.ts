// GET /api/tokens: search and list tokens (filters, market sorts, keyset cursor), within the search budget
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { tokensQuery } from "@/lib/domains/tokens/schemas";
import { searchTokens } from "@/lib/domains/tokens/service";
import { tokenSearchResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary:
    "Search and list tokens: q, creator and pool filters, market sorts, keyset cursor; 503 + Retry-After 5 past the search budget",
  query: tokensQuery,
  response: tokenSearchResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query }) => searchTokens(query),
});
export const OPTIONS = preflight;
