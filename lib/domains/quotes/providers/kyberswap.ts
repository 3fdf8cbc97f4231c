// KyberSwap Aggregator: GET /{chain}/api/v1/routes, answer `{ code: 0, data: { routeSummary } }`; the
// route is paths of hops, each path taking `swapAmount` of the input.
// https://docs.kyberswap.com/kyberswap-solutions/kyberswap-aggregator/aggregator-api-specification/evm-swaps
import { z } from "zod";
import { config } from "@/lib/core/config";
import { fetchProviderJson, parseAnswer } from "@/lib/domains/quotes/http";
import { QuoteProviderError, type QuoteProvider, type RouteLeg } from "@/lib/domains/quotes/types";
import { checkedOutput, normaliseBps, zAmount, zTokenAddress } from "./shared";

/** The path segment KyberSwap names each chain by. */
export const KYBERSWAP_CHAINS: Record<number, string> = {
  1: "ethereum",
  10: "optimism",
  56: "bsc",
  137: "polygon",
  8453: "base",
  42161: "arbitrum",
  43114: "avalanche",
  59144: "linea",
  534352: "scroll",
};

const hop = z.object({
  tokenIn: zTokenAddress,
  tokenOut: zTokenAddress,
  swapAmount: zAmount,
  exchange: z.string().min(1),
});
const answer = z.object({
  code: z.number(),
  message: z.string().optional(),
  data: z
    .object({
      routeSummary: z.object({
        tokenOut: zTokenAddress,
        amountOut: zAmount,
        route: z.array(z.array(hop).min(1).max(20)).max(50),
      }),
    })
    .optional(),
});

export const kyberSwapProvider: QuoteProvider = {
  name: "kyberswap",
  supports: (chainId) => chainId in KYBERSWAP_CHAINS,
  async quote(request, signal) {
    const c = config();
    const url = new URL(`/${KYBERSWAP_CHAINS[request.chainId]}/api/v1/routes`, c.KYBERSWAP_BASE_URL);
    url.search = new URLSearchParams({
      tokenIn: request.inputToken,
      tokenOut: request.outputToken,
      amountIn: request.inputAmount.toString(),
      origin: request.swapperAccount,
      gasInclude: "true",
    }).toString();
    const headers: Record<string, string> = c.KYBERSWAP_CLIENT_ID ? { "x-client-id": c.KYBERSWAP_CLIENT_ID } : {};
    const parsed = parseAnswer(
      "kyberswap",
      answer,
      await fetchProviderJson("kyberswap", url.toString(), { headers }, signal),
    );
    if (parsed.code !== 0 || !parsed.data) throw new QuoteProviderError("kyberswap", "no_route", `code ${parsed.code}`);
    const summary = parsed.data.routeSummary;
    // Each path's share is what its first hop takes of the input; every hop of the path carries it.
    const shares = normaliseBps(summary.route.map((path) => BigInt(path[0].swapAmount)));
    const route: RouteLeg[] = summary.route.flatMap((path, i) =>
      path.map((h) => ({ source: h.exchange, tokenIn: h.tokenIn, tokenOut: h.tokenOut, proportionBps: shares[i] })),
    );
    return {
      provider: "kyberswap",
      outputAmount: checkedOutput("kyberswap", request, summary.amountOut, summary.tokenOut),
      route,
    };
  },
};
