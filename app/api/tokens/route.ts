// GET /api/tokens: search and list tokens (filters, market sorts, keyset cursor), within the search budget
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { reportProfilesIncomplete } from "@/lib/http/headers";
import { tokensQuery } from "@/lib/domains/tokens/schemas";
import { searchTokens } from "@/lib/domains/tokens/service";
import { tokenSearchResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "Search and list tokens",
  description:
    "Token search and lists: `q` (address, v4 pool id, or a name or symbol substring; one or two characters match the start), creator filters (`fid`, `fids`, `msgSender`), pool and pair filters, market sorts, newest first by default, paged by a keyset `cursor` (or `offset` up to 1,000). With `includeUser` and `includeMarket`, each token's creator profile and market data. `total` is exact up to 1,000 matches and estimated above. A search past its time budget answers 503 with Retry-After 5. Cached 2 s at the edge.",
  query: tokensQuery,
  response: tokenSearchResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query, setHeader }) => searchTokens(query, reportProfilesIncomplete(setHeader)),
});
export const OPTIONS = preflight;
