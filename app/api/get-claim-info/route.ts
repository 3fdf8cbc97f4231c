// GET /api/get-claim-info: a token's LP locker and position NFT, as the legacy fee-claim flows need them
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { claimInfo } from "@/lib/domains/rewards/legacy/service";
import { claimInfoResponse } from "@/lib/domains/rewards/legacy/responses";
import { claimInfoQuery } from "@/lib/domains/rewards/legacy/schemas";

export const maxDuration = 60;

export const GET = route({
  auth: "partner",
  summary: "Get a token's LP locker and position",
  description:
    "The LP locker holding the token's liquidity, its Uniswap V3 position NFT (`lpNftId`, a decimal string) and the token's generation (`type`), as stored when the token was indexed: no chain read. A v0 (`proxy`) or v1 (`clanker`) token has a locker of its own, later generations share one per generation. A v4 token answers its LP locker and `lpNftId: null`: its liquidity is not a V3 position NFT. 404 for a token the service does not know.",
  query: claimInfoQuery,
  response: claimInfoResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => claimInfo(query.address),
});
