// GET /api/tokens/estimate-rewards-by-pool-address: (deprecated) uncollected rewards of a pool's token per recipient
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { DEPRECATION_HEADERS, estimateRewardsQuery } from "@/lib/domains/rewards/fees/schemas";
import { estimateRewardsOfPool } from "@/lib/domains/rewards/fees/estimates";
import { poolRewardsEstimateResponse } from "@/lib/domains/rewards/fees/responses";

export const maxDuration = 60;

export const GET = route({
  auth: "public",
  summary: "Estimate a pool's uncollected rewards (deprecated)",
  description:
    "Deprecated (answers carry `Deprecation: true`). What each reward recipient of the pool's token can still collect, read from the chain with one multicall; `userRewards` is the first recipient's share in USD, as the platform's earlier SDK reads it. A token of a generation before v4 (v0 to v3.1) is a 422: its fees sit in its Uniswap V3 position, which get-lp-info names.",
  deprecated: true,
  query: estimateRewardsQuery,
  response: poolRewardsEstimateResponse,
  cache: cachePolicy.none,
  headers: DEPRECATION_HEADERS,
  handler: ({ query }) => estimateRewardsOfPool({ by: "pool", value: query.poolAddress, chainId: query.chainId }),
});
export const OPTIONS = preflight;
