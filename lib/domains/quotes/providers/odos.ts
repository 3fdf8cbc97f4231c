// Odos smart order router: POST /sor/quote/v2 with `inputTokens`/`outputTokens`, answer `outAmounts`
// and a `pathId` (valid about a minute, for /sor/assemble). Odos names the native coin 0x000…000.
// https://docs.odos.xyz/build/quickstart/sor
import { z } from "zod";
import { getAddress } from "viem";
import { config } from "@/lib/core/config";
import { fetchProviderJson, parseAnswer } from "@/lib/domains/quotes/http";
import { NATIVE_TOKEN, type Hex20, type QuoteProvider } from "@/lib/domains/quotes/types";
import { checkedOutput, zAmount, zTokenAddress } from "./shared";

const ODOS_NATIVE = "0x0000000000000000000000000000000000000000";
const toOdos = (token: Hex20) => getAddress(token === NATIVE_TOKEN ? ODOS_NATIVE : token);
const fromOdos = (token: Hex20) => (token === ODOS_NATIVE ? NATIVE_TOKEN : token) as Hex20;

const answer = z.object({
  outTokens: z.array(zTokenAddress).length(1),
  outAmounts: z.array(zAmount).length(1),
});

export const odosProvider: QuoteProvider = {
  name: "odos",
  supports: () => true,
  async quote(request, signal) {
    const c = config();
    const body = {
      chainId: request.chainId,
      inputTokens: [{ tokenAddress: toOdos(request.inputToken), amount: request.inputAmount.toString() }],
      outputTokens: [{ tokenAddress: toOdos(request.outputToken), proportion: 1 }],
      userAddr: getAddress(request.swapperAccount),
      slippageLimitPercent: request.slippageBps / 100,
      compact: true,
    };
    const headers: Record<string, string> = c.ODOS_API_KEY ? { "x-api-key": c.ODOS_API_KEY } : {};
    const url = new URL("/sor/quote/v2", c.ODOS_BASE_URL).toString();
    const parsed = parseAnswer(
      "odos",
      answer,
      await fetchProviderJson("odos", url, { method: "POST", headers, body }, signal),
    );
    const tokenOut = fromOdos(parsed.outTokens[0]);
    return {
      provider: "odos",
      outputAmount: checkedOutput("odos", request, parsed.outAmounts[0], tokenOut),
      // Odos does not break its path down in a quote; the route is the whole trade through its router.
      route: [{ source: "Odos", tokenIn: request.inputToken, tokenOut, proportionBps: 10_000 }],
    };
  },
};
