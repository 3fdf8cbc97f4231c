// GET /api/get-tokens-by-fid: a FID's tokens, 10 per page, with pagination totals
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { tokensByFidQuery } from "@/lib/domains/tokens/schemas";
import { tokensOfFid } from "@/lib/domains/tokens/service";
import { tokensByFidResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "List a FID's tokens",
  description:
    "The tokens requested by a FID, newest first, 10 per page with pagination totals; page with the answer's cursor. Partner answers are private.",
  query: tokensByFidQuery,
  response: tokensByFidResponse,
  cache: cachePolicy.tokensByFid,
  handler: ({ query }) => tokensOfFid(query),
});
