// Answer shape of creator-earnings/{tokenAddress} (COMPAT), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, ethAmount, weiAmount } from "@/lib/core/answers";

const wei = weiAmount.describe("wei of WETH (18 decimals), exact decimal string");
const eth = ethAmount.describe("WETH in ether, an exact decimal string (the platform's unit)");
const recipient = z.string().describe("lowercase recipient address");

export const creatorEarningsResponse = z.object({
  tokenAddress: address,
  chainId: z.number().int(),
  wethAddress: address,
  totalWethClaimed: eth,
  claimCount: z.number().int().describe("claims counted in totalWethClaimed"),
  claimsByRecipient: z
    .record(recipient, eth)
    .describe('every current reward recipient of the token, "0.0" when it has claimed nothing'),
  totalWethClaimedWei: wei.describe("totalWethClaimed in wei"),
  claimsByRecipientWei: z.record(recipient, wei).describe("claimsByRecipient in wei"),
  indexedToBlock: z
    .number()
    .int()
    .nullable()
    .describe("the last block the claim indexer has read; null before its first run"),
});
