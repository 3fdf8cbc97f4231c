// GET /api/tokens/fetch-deployed-by-fid: tokens requested by a FID, newest first, by cursor, page or offset
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { deployedByFidQuery } from "@/lib/domains/tokens/schemas";
import { deployedByFid } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "List tokens requested by a FID",
  description:
    "Tokens requested by the FID (the deployment's requestor), newest first, `limit` a page (1 to 20, default 10), by cursor, or by `page` or `offset` as the earlier API's clients page (with a cursor, they count from it).",
  query: deployedByFidQuery,
  response: tokenListResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query }) => deployedByFid(query),
});
export const OPTIONS = preflight;
