// Parameters of get-claimed-fees/{tokenAddress}/{feeRecipient}, as the platform's API reference lists them.
import { z } from "zod";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";
import { zAddress, zChainId, zInt, zLimit } from "@/lib/core/input";

export const MAX_CLAIMS_OFFSET = 10_000;

export const claimedFeesParams = z.object({
  tokenAddress: zAddress.describe("the token's contract address"),
  feeRecipient: zAddress.describe("the fee owner, as the token's extensions.fees.recipients[].recipient names it"),
});
export const claimedFeesQuery = z.object({
  chainId: zChainId.default(DEFAULT_CHAIN_ID).describe("the token's chain"),
  limit: zLimit(100, 50),
  offset: zInt(0, MAX_CLAIMS_OFFSET).default(0).describe(`claims to skip, at most ${MAX_CLAIMS_OFFSET}`),
});
