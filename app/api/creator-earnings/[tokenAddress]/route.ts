// GET /api/creator-earnings/{tokenAddress}: WETH claimed by the token's reward recipients (wei), cached 1 hour
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { creatorEarningsParams, creatorEarningsQuery } from "@/lib/domains/users/creators/schemas";
import { creatorEarnings } from "@/lib/domains/rewards/earnings/service";
import { creatorEarningsResponse } from "@/lib/domains/rewards/earnings/responses";

export const GET = route({
  auth: "public",
  summary: "WETH (wei) claimed by the token's reward recipients",
  params: creatorEarningsParams,
  query: creatorEarningsQuery,
  response: creatorEarningsResponse,
  cache: cachePolicy.creatorEarnings,
  handler: ({ params, query }) => creatorEarnings(params.tokenAddress, query.chainId),
});
export const OPTIONS = preflight;
