// Parameters of the deprecated fee-estimate endpoints (the interface leaves them "not shown").
import { z } from "zod";
import { zAddress, zBytes32, zChainId } from "@/lib/core/input";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

/** A 20-byte pool address (v3 era) or a 32-byte Uniswap v4 pool id, as tokens.pool_address holds them. */
const zPool = z.union([zAddress, zBytes32], {
  message: "must be a pool address (0x + 40 hex) or a v4 pool id (0x + 64 hex)",
});

const chainId = zChainId.default(DEFAULT_CHAIN_ID).describe("the token's chain");

export const estimateRewardsQuery = z.object({
  poolAddress: zPool.describe("the token's pool address or v4 pool id"),
  chainId,
});

export const uncollectedFeesParams = z.object({ address: zAddress.describe("the token's contract address") });
export const uncollectedFeesQuery = z.object({
  chainId,
  rewardRecipientAddress: zAddress
    .optional()
    .describe(
      "token0UncollectedRewards and token1UncollectedRewards of this fee owner alone (without: all recipients)",
    ),
});

/** Both endpoints are deprecated (interface part 9): every answer says so. */
export const DEPRECATION_HEADERS = { Deprecation: "true" };
