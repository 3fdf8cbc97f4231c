// GET /api/tokens/search: deprecated search (q, fids; 5 per page); use GET /api/tokens
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { searchQuery } from "@/lib/domains/tokens/schemas";
import { legacySearch } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "Search tokens (deprecated)",
  description:
    "Deprecated (answers carry `Deprecation: true` and a Link to GET /api/tokens): GET /api/tokens with `q` and `fids` only, 5 per page.",
  deprecated: true,
  query: searchQuery,
  response: tokenListResponse,
  cache: cachePolicy.tokensList,
  headers: { Deprecation: "true", Link: '</api/tokens>; rel="successor-version"' },
  handler: ({ query }) => legacySearch(query),
});
export const OPTIONS = preflight;
