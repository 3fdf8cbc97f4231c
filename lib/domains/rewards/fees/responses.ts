// Answer shapes of the deprecated fee estimates (interface 4.7 leaves them "not shown"), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, poolKey, weiAmount } from "@/lib/core/answers";

const wei = weiAmount.describe("smallest unit (wei), exact decimal string");

export const uncollectedFeesResponse = z.object({
  tokenAddress: address,
  poolAddress: poolKey
    .nullable()
    .describe("20-byte pool address (checksummed) or a 32-byte v4 pool id; null when none is stored"),
  chainId: z.number().int(),
  pairedTokenAddress: address,
  recipients: z
    .array(
      z.object({
        recipient: address,
        admin: address,
        rewardBps: z.number().int().describe("share of the rewards in bps (10,000 = 100%), summed when listed twice"),
        tokenAmount: wei.describe("uncollected, in the token: wei, exact decimal string"),
        pairedAmount: wei.describe("uncollected, in the paired token: wei, exact decimal string"),
      }),
    )
    .describe("each distinct reward recipient once, in the locker's order"),
  totals: z.object({ tokenAmount: wei, pairedAmount: wei }),
});

/** estimate-rewards-by-pool-address: the estimate, plus the member the platform's earlier SDK types (EstimatedRewardsResponse). */
export const poolRewardsEstimateResponse = uncollectedFeesResponse.extend({
  userRewards: z
    .number()
    .nullable()
    .describe(
      "USD worth of the first recipient's uncollected rewards (the creator's, as the earlier SDK reads it): the token at its stored market price, the paired token as GET /api/marketcap prices it; null when a held amount has no price",
    ),
});

const currency = z
  .object({
    chainId: z.number().int(),
    address,
    symbol: z.string().nullable(),
    decimals: z.number().int().nullable(),
    name: z.string().nullable(),
  })
  .describe("one of the pool's currencies (native ETH: the zero address); null where the chain does not answer");

/** get-estimated-uncollected-fees: the estimate, plus the members the platform's earlier SDK types. */
export const uncollectedFeesOfTokenResponse = uncollectedFeesResponse.extend({
  lockerAddress: address.describe("the LP locker holding the token's reward split"),
  lpNftId: z.number().int().describe("the locker's LP position (its NFT id); 0 when it holds none for the token"),
  token0UncollectedRewards: wei.describe(
    "collectable in token0 by every recipient, or by rewardRecipientAddress: wei, exact decimal string",
  ),
  token1UncollectedRewards: wei.describe("as token0UncollectedRewards, in token1"),
  token0: currency,
  token1: currency,
});
