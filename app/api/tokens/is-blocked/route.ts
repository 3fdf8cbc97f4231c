// GET /api/tokens/is-blocked: whether a token is blocked, globally or on one chain
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { isBlockedQuery } from "@/lib/domains/tokens/schemas";
import { isBlocked } from "@/lib/domains/tokens/service";
import { isBlockedResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "Whether a token is blocked: globally and on any chain, or on the given chain",
  query: isBlockedQuery,
  response: isBlockedResponse,
  cache: cachePolicy.isBlocked,
  handler: ({ query }) => isBlocked(query.address, query.chainId),
});
