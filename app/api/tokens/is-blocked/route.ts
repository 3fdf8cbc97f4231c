// GET /api/tokens/is-blocked: whether a token is blocked, globally or on one chain
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { isBlockedQuery } from "@/lib/domains/tokens/schemas";
import { isBlocked } from "@/lib/domains/tokens/service";
import { isBlockedResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "Check whether a token is blocked",
  description:
    "Whether a token is blocked: without `chainId`, a block on any chain (or a global one) counts; with it, only a block on that chain or a global one. Partner answers are private.",
  query: isBlockedQuery,
  response: isBlockedResponse,
  cache: cachePolicy.isBlocked,
  handler: ({ query }) => isBlocked(query.address, query.chainId),
});
