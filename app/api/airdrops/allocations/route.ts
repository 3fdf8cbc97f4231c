// GET /api/airdrops/allocations: one page of a token's airdrop (account, amount) pairs.
import { preflight, route } from "@/lib/http/route";
import { allocations } from "@/lib/domains/airdrops/service";
import { allocationsQuery } from "@/lib/domains/airdrops/schemas";
import { allocationsResponse } from "@/lib/domains/airdrops/responses";

export const GET = route({
  auth: "public",
  summary:
    "One page of a token's airdrop (account, amount) pairs in account order, with the root and leaf count; cursor-paged",
  query: allocationsQuery,
  response: allocationsResponse,
  handler: ({ query }) => allocations(query.tokenAddress, query.limit, query.cursor),
});

export const OPTIONS = preflight;
