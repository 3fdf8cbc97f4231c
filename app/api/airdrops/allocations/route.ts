// GET /api/airdrops/allocations: one page of a token's airdrop (account, amount) pairs.
import { preflight, route } from "@/lib/http/route";
import { allocations } from "@/lib/airdrops/service";
import { allocationsQuery } from "@/lib/airdrops/schemas";

export const GET = route({
  auth: "public",
  query: allocationsQuery,
  handler: ({ query }) => allocations(query.tokenAddress, query.limit, query.cursor),
});

export const OPTIONS = preflight;
