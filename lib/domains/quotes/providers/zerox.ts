// 0x Swap API v2: GET /swap/permit2/price (indicative price with the route; no calldata), with the
// `0x-api-key` and `0x-version: v2` headers. https://0x.org/docs/api#tag/Swap
import { z } from "zod";
import { config } from "@/lib/core/config";
import { fetchProviderJson, parseAnswer } from "@/lib/domains/quotes/http";
import { QuoteProviderError, type QuoteProvider } from "@/lib/domains/quotes/types";
import { checkedOutput, zAmount, zTokenAddress } from "./shared";

const answer = z.union([
  z.object({ liquidityAvailable: z.literal(false) }),
  z.object({
    liquidityAvailable: z.literal(true),
    buyToken: zTokenAddress,
    buyAmount: zAmount,
    route: z.object({
      fills: z
        .array(
          z.object({
            from: zTokenAddress,
            to: zTokenAddress,
            source: z.string().min(1),
            proportionBps: z.union([z.string().regex(/^\d+$/), z.number().int()]).transform(Number),
          }),
        )
        .max(100),
    }),
  }),
]);

export const zeroExProvider: QuoteProvider = {
  name: "0x",
  supports: () => Boolean(config().ZEROX_API_KEY),
  async quote(request, signal) {
    const c = config();
    const url = new URL("/swap/permit2/price", c.ZEROX_BASE_URL);
    url.search = new URLSearchParams({
      chainId: String(request.chainId),
      sellToken: request.inputToken,
      buyToken: request.outputToken,
      sellAmount: request.inputAmount.toString(),
      taker: request.swapperAccount,
      slippageBps: String(request.slippageBps),
    }).toString();
    const headers = { "0x-api-key": c.ZEROX_API_KEY ?? "", "0x-version": "v2" };
    const parsed = parseAnswer("0x", answer, await fetchProviderJson("0x", url.toString(), { headers }, signal));
    if (!parsed.liquidityAvailable) throw new QuoteProviderError("0x", "no_route", "no liquidity for this pair");
    return {
      provider: "0x",
      outputAmount: checkedOutput("0x", request, parsed.buyAmount, parsed.buyToken),
      route: parsed.route.fills.map((f) => ({
        source: f.source,
        tokenIn: f.from,
        tokenOut: f.to,
        proportionBps: f.proportionBps,
      })),
    };
  },
};
