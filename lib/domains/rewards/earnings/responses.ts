// Answer shape of creator-earnings/{tokenAddress} (COMPAT), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, weiAmount } from "@/lib/core/answers";

const wei = weiAmount.describe("wei of WETH (18 decimals), exact decimal string");

export const creatorEarningsResponse = z.object({
  tokenAddress: address,
  chainId: z.number().int(),
  wethAddress: address,
  totalWethClaimed: wei,
  claimCount: z.number().int().describe("claims counted in totalWethClaimed"),
  claimsByRecipient: z
    .record(z.string().describe("lowercase recipient address"), wei)
    .describe("every current reward recipient of the token, 0 when it has claimed nothing"),
  indexedToBlock: z
    .number()
    .int()
    .nullable()
    .describe("the last block the claim indexer has read; null before its first run"),
});
