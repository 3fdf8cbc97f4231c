// Zod pieces for the providers' answers, and the checks every provider's quote must pass.
import { z } from "zod";
import { QuoteProviderError, type Hex20, type ProviderName, type QuoteRequest } from "@/lib/domains/quotes/types";
import { EVM_ADDRESS } from "@/lib/core/evm";

export const zAmount = z.string().regex(/^\d{1,78}$/, "an integer amount");
export const zTokenAddress = z
  .string()
  .regex(EVM_ADDRESS, "an address")
  .transform((v) => v.toLowerCase() as Hex20);

/** A quote for another pair, or for nothing, is worse than no quote: reject it. */
export function checkedOutput(
  provider: ProviderName,
  request: QuoteRequest,
  outputAmount: string,
  answeredTokenOut?: Hex20,
): bigint {
  if (answeredTokenOut && answeredTokenOut !== request.outputToken) {
    throw new QuoteProviderError(
      provider,
      "malformed",
      `quoted ${answeredTokenOut} instead of the requested output token`,
    );
  }
  const amount = BigInt(outputAmount);
  if (amount <= 0n) throw new QuoteProviderError(provider, "no_route", "quoted no output");
  return amount;
}

/** Shares in bps that sum to 10,000, the rounding remainder on the largest one. */
export function normaliseBps(shares: bigint[]): number[] {
  const total = shares.reduce((a, b) => a + b, 0n);
  if (total <= 0n) return shares.map(() => Math.floor(10_000 / Math.max(1, shares.length)));
  const bps = shares.map((s) => Number((s * 10_000n) / total));
  const largest = bps.indexOf(Math.max(...bps));
  bps[largest] += 10_000 - bps.reduce((a, b) => a + b, 0);
  return bps;
}
