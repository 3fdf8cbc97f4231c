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

export const claimedFeesResponse = z.object({
  tokenAddress: address,
  feeRecipient: address,
  chainId: z.number().int(),
  pairedTokenAddress: address.describe("the currency counted: the token's paired token (WETH for most)"),
  totalClaimed: weiAmount.describe("wei of the paired token the recipient has claimed, exact decimal string"),
  claimCount: z.number().int().describe("claims counted in totalClaimed"),
  txHashes: z.array(z.string()).describe("this page of the claims' transactions, newest first"),
  pagination: z.object({
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean().describe("whether claims follow this page"),
  }),
  indexedToBlock: z
    .number()
    .int()
    .nullable()
    .describe("the last block the claim indexer has read; null before its first run"),
});
