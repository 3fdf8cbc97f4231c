// GET /api/tokens/fetch-deployed-by-fid: tokens requested by a FID, newest first, by cursor
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { deployedByFidQuery } from "@/lib/domains/tokens/schemas";
import { deployedByFid } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "List tokens requested by a FID",
  description:
    "Tokens requested by the FID (the deployment's requestor), newest first, 10 per page by cursor; or `limit` per page (up to 20) by `page` or `offset`, as the earlier API's clients page.",
  query: deployedByFidQuery,
  response: tokenListResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query }) => deployedByFid(query),
});
export const OPTIONS = preflight;
