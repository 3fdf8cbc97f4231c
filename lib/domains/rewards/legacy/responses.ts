// Answer shapes of get-claim-info and get-lp-info/{address} (the platform's members), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, poolKey, weiAmount } from "@/lib/core/answers";

const lpNftId = z
  .string()
  .regex(/^\d{1,78}$/)
  .describe("the Uniswap V3 position NFT the locker holds, as a decimal string");

export const claimInfoResponse = z.object({
  lockerAddress: address.nullable().describe("the LP locker that holds the token's position; null when not known"),
  lpNftId: lpNftId.nullable().describe("the LP position NFT (decimal string); null for v4 tokens, which have none"),
  contract_address: address,
  type: z
    .string()
    .describe("the token's generation: proxy (v0), clanker (v1), clanker_v2, clanker_v3, clanker_v3_1, clanker_v4"),
});

export const lpInfoResponse = z.object({
  poolAddress: poolKey.nullable().describe("the token's pool: a Uniswap V3 pool address, or a v4 pool id"),
  lockerAddress: address.nullable(),
  lpNftId: lpNftId
    .nullable()
    .describe("the LP position: a legacy token's Uniswap V3 NFT, a v4 token's first locker position"),
  amountDepositedIntoLP: weiAmount
    .nullable()
    .describe("wei of the token put into the pool at deployment; null when the deploy block holds no deposit for it"),
  totalSupply: weiAmount.describe("the token's total supply in wei"),
  percentLocked: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .nullable()
    .describe(
      "amountDepositedIntoLP as a percentage of totalSupply (two decimals at most, rounded down); 0 when the locker no longer holds the position; null with no deposit",
    ),
  token_name: z.string(),
  token_symbol: z.string(),
});
