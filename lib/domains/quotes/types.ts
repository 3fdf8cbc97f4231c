// One interface over the swap aggregators' quote APIs: what a request carries, what a provider answers.
export type Hex20 = `0x${string}`;

export type QuoteRequest = {
  chainId: number;
  /** Lowercase addresses; 0xeeee…eeee is the chain's native coin. */
  inputToken: Hex20;
  outputToken: Hex20;
  inputAmount: bigint;
  swapperAccount: Hex20;
  slippageBps: number;
};

/** One leg of a route: a share of the input (bps of the whole) sent through one liquidity source. */
export type RouteLeg = { source: string; tokenIn: Hex20; tokenOut: Hex20; proportionBps: number };

export type ProviderQuote = { provider: ProviderName; outputAmount: bigint; route: RouteLeg[] };

export const PROVIDER_NAMES = ["0x", "kyberswap", "odos"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface QuoteProvider {
  readonly name: ProviderName;
  supports(chainId: number): boolean;
  /** Resolves with a validated quote or rejects with a QuoteProviderError; honours `signal`. */
  quote(request: QuoteRequest, signal: AbortSignal): Promise<ProviderQuote>;
}

/** Why one provider gave no usable quote; the service reports these when all fail. */
export class QuoteProviderError extends Error {
  override readonly name = "QuoteProviderError";
  constructor(
    readonly provider: ProviderName,
    readonly kind: "timeout" | "http" | "malformed" | "no_route" | "unreachable",
    message: string,
  ) {
    super(`${provider}: ${message}`);
  }
}

export const NATIVE_TOKEN = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
