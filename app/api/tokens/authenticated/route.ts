// GET /api/tokens/authenticated: GET /api/tokens for partners (no fid; limit up to 200)
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { reportProfilesIncomplete } from "@/lib/http/headers";
import { authenticatedTokensQuery } from "@/lib/domains/tokens/schemas";
import { searchTokens } from "@/lib/domains/tokens/service";
import { tokenSearchResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "Search and list tokens (partners)",
  description:
    "GET /api/tokens for partners: the same filters, sorts and cursors, pages of up to 200, and no `fid` (use `fids`). Answers are private.",
  query: authenticatedTokensQuery,
  response: tokenSearchResponse,
  cache: cachePolicy.none,
  handler: ({ query, setHeader }) => searchTokens(query, reportProfilesIncomplete(setHeader)),
});
