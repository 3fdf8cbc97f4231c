// Query of GET /api/quotes.
import { z } from "zod";
import { zAddress, zChainId, zInt, zWei } from "../http/params";

export const quoteQuery = z.object({
  chainId: zChainId,
  inputToken: zAddress,
  outputToken: zAddress,
  inputAmount: zWei,
  swapperAccount: zAddress,
  strategy: z.enum(["best", "fastest"], { message: "must be best or fastest" }).default("best"),
  slippageBps: zInt(0, 10_000).default(50),
});
export type QuoteQuery = z.infer<typeof quoteQuery>;
