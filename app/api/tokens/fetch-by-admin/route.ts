// GET /api/tokens/fetch-by-admin: tokens whose admin is the given address
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { reportProfilesIncomplete } from "@/lib/http/headers";
import { fetchByAdminQuery } from "@/lib/domains/tokens/schemas";
import { tokensOfAdmin } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "List tokens by admin",
  description:
    "Tokens whose admin is the address, newest first, paged by cursor (`limit` 1 to 200). Partner answers are uncached.",
  query: fetchByAdminQuery,
  response: tokenListResponse,
  cache: cachePolicy.none,
  handler: ({ query, setHeader }) => tokensOfAdmin(query, reportProfilesIncomplete(setHeader)),
});
