// GET /api/creator-earnings/{tokenAddress}: WETH claimed by the token's reward recipients (wei), cached 1 hour
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { creatorEarningsParams, creatorEarningsQuery } from "@/lib/domains/creators/schemas";
import { creatorEarnings } from "@/lib/domains/rewards/earnings/service";
import { creatorEarningsResponse } from "@/lib/domains/rewards/earnings/responses";

export const maxDuration = 60;

export const GET = route({
  auth: "public",
  summary: "Get a token's creator earnings",
  description:
    "WETH (wei, decimal strings) claimed from the fee locker by each reward recipient of the token, from the indexed fee-claim events; every recipient currently in the token's reward split is listed, 0 when it has claimed nothing. Fee-locker balances are per owner and reward token: a recipient shared by several tokens has all its WETH claims counted for each. Cached for an hour at the edge.",
  params: creatorEarningsParams,
  query: creatorEarningsQuery,
  response: creatorEarningsResponse,
  cache: cachePolicy.creatorEarnings,
  handler: ({ params, query }) => creatorEarnings(params.tokenAddress, query.chainId),
});
export const OPTIONS = preflight;
