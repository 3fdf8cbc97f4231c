// GET /api/tokens/fetch-by-admin: tokens whose admin is the given address
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { fetchByAdminQuery } from "@/lib/domains/tokens/schemas";
import { tokensOfAdmin } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "Tokens whose admin is the address (limit 1..200)",
  query: fetchByAdminQuery,
  response: tokenListResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => tokensOfAdmin(query),
});
