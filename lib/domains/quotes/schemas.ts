// Query and answer of GET /api/quotes.
import { z } from "zod";
import { zAddress, zChainId, zInt, zWei } from "@/lib/core/input";
import { checksummedAddress, weiAmount } from "@/lib/core/answers";
import { PROVIDER_NAMES } from "./types";

const STRATEGIES = ["best", "fastest"] as const;

export const quoteQuery = z.object({
  chainId: zChainId.describe("the chain of the swap"),
  inputToken: zAddress.describe("the token sold (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE: the native coin)"),
  outputToken: zAddress.describe("the token bought (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE: the native coin)"),
  inputAmount: zWei.describe("the amount sold, in the input token's base units (wei for 18 decimals)"),
  swapperAccount: zAddress.describe("the account that will send the swap"),
  strategy: z
    .enum(STRATEGIES, { message: "must be best or fastest" })
    .default("best")
    .describe("best: the largest output within the deadline; fastest: the first valid quote"),
  slippageBps: zInt(0, 10_000).default(50).describe("tolerated slippage in basis points: minOutputAmount's discount"),
});
export type QuoteQuery = z.infer<typeof quoteQuery>;

const address = checksummedAddress.describe(
  "EIP-55 checksummed address; 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE is the chain's native coin",
);
const amount = weiAmount.describe("integer amount in the token's base units (wei for 18 decimals), decimal string");

export const quoteResponse = z.object({
  chainId: z.number().int(),
  inputToken: address,
  outputToken: address,
  inputAmount: amount,
  outputAmount: amount.describe("the chosen provider's quoted output, base units, decimal string"),
  minOutputAmount: amount.describe("outputAmount less slippageBps, rounded down"),
  slippageBps: z.number().int(),
  strategy: z.enum(STRATEGIES),
  provider: z.enum(PROVIDER_NAMES).describe("the aggregator whose quote this is"),
  route: z
    .array(
      z.object({
        source: z.string().describe("the liquidity source, as the aggregator names it"),
        tokenIn: address,
        tokenOut: address,
        proportionBps: z.number().int().describe("share of the input, bps of the whole"),
      }),
    )
    .describe("legs of the route"),
});
