// Answer shape of the deprecated fee estimates (interface 4.7 leaves it "not shown"), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, weiAmount } from "@/lib/core/answers";

const wei = weiAmount.describe("smallest unit (wei), exact decimal string");

export const uncollectedFeesResponse = z.object({
  tokenAddress: address,
  poolAddress: z
    .string()
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
