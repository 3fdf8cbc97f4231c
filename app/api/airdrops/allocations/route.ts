// GET /api/airdrops/allocations: one page of a token's airdrop (account, amount) pairs.
import { preflight, route } from "@/lib/http/route";
import { allocations } from "@/lib/domains/airdrops/service";
import { allocationsQuery } from "@/lib/domains/airdrops/schemas";
import { allocationsResponse } from "@/lib/domains/airdrops/responses";

export const GET = route({
  auth: "public",
  summary: "List an airdrop's allocations",
  description:
    "One page of the (account, amount) pairs of a token's current airdrop tree, in account order, with the tree's root and leaf count. Page with `limit` and the answer's `nextCursor`; a cursor pins the tree it started on, and answers 409 once a newer upload has replaced and deleted that tree (start again without a cursor). 404 when the token has no airdrop tree.",
  query: allocationsQuery,
  response: allocationsResponse,
  handler: ({ query }) => allocations(query.tokenAddress, query.limit, query.cursor),
});

export const OPTIONS = preflight;
