// GET /api/airdrops/claimed: what a token's airdrop has paid out, against its tree's total (the token page's bar).
import { preflight, route } from "@/lib/http/route";
import { claimedShare } from "@/lib/domains/airdrops/service";
import { claimedQuery } from "@/lib/domains/airdrops/schemas";
import { claimedResponse } from "@/lib/domains/airdrops/responses";

export const GET = route({
  auth: "public",
  summary: "Get an airdrop's claimed share",
  description:
    "What a token's airdrop has paid out (wei), from the airdrop extension's AirdropClaimed events the service indexes every minute (EARNINGS_INDEX_* settings, a few blocks behind the head), how many accounts claimed, the sum of the token's current airdrop tree (null without a stored tree or above 100,000 leaves) and the claimed share of it. 404 when the token is not indexed. Any address case is accepted.",
  query: claimedQuery,
  response: claimedResponse,
  handler: ({ query }) => claimedShare(query.tokenAddress),
});

export const OPTIONS = preflight;
