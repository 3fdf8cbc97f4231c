// GET /api/get-lp-info/{address}: a token's LP position, what its deployment put into it and the share locked
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { lpInfo } from "@/lib/domains/rewards/legacy/service";
import { lpInfoResponse } from "@/lib/domains/rewards/legacy/responses";
import { lpInfoParams } from "@/lib/domains/rewards/legacy/schemas";

export const maxDuration = 60;

export const GET = route({
  auth: "partner",
  summary: "Get a token's LP position",
  description:
    "The token's pool, LP locker and position, the wei of the token its deployment put into the pool (`amountDepositedIntoLP`), its total supply and the share of the supply locked (`percentLocked`). The deposit is read from the deploy block's own event: a v0 to v3.1 token's IncreaseLiquidity at Uniswap V3's position manager (the token's side), a v4 token's TokenRewardAdded at its locker (`poolSupply`, and the position as `lpNftId`). With it, in the same moment, one multicall reads the supply and, for a legacy token, the position's owner: `percentLocked` is 0 when the locker no longer holds the position. Deposit and percentage are null when the deploy block holds no deposit for the token. 404 for a token the service does not know; 503 when the chain does not answer. Cached for 2 minutes by the caller.",
  params: lpInfoParams,
  response: lpInfoResponse,
  cache: cachePolicy.lpInfo,
  handler: ({ params }) => lpInfo(params.address),
});
