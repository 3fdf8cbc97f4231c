// GET /api/get-estimated-uncollected-fees/{address}: (deprecated) uncollected fees of a token per recipient
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { DEPRECATION_HEADERS, uncollectedFeesParams, uncollectedFeesQuery } from "@/lib/domains/rewards/fees/schemas";
import { uncollectedFeesOfToken } from "@/lib/domains/rewards/fees/estimates";
import { uncollectedFeesOfTokenResponse } from "@/lib/domains/rewards/fees/responses";

export const maxDuration = 60;

export const GET = route({
  auth: "public",
  summary: "Estimate a token's uncollected fees (deprecated)",
  description:
    "Deprecated (answers carry `Deprecation: true`). What each reward recipient of the token can still collect, read from the chain (the locker's split, then one multicall of the fee locker); and, as the platform's earlier SDK reads them, the pool's currencies (`token0`, `token1`) with what all recipients, or `rewardRecipientAddress` alone, can collect in each. A token of a generation before v4 (v0 to v3.1) is a 422: its fees sit in its Uniswap V3 position, which get-lp-info names.",
  deprecated: true,
  params: uncollectedFeesParams,
  query: uncollectedFeesQuery,
  response: uncollectedFeesOfTokenResponse,
  cache: cachePolicy.none,
  headers: DEPRECATION_HEADERS,
  handler: ({ params, query }) =>
    uncollectedFeesOfToken(
      { by: "address", value: params.address, chainId: query.chainId },
      query.rewardRecipientAddress,
    ),
});
export const OPTIONS = preflight;
