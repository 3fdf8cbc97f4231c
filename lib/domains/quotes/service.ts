// Swap quotes across aggregators: `best` asks every provider at once and keeps the largest output that
// arrived within the deadline; `fastest` keeps the first valid answer and cancels the rest.
import { config } from "@/lib/core/config";
import { badRequest, providerUnavailable } from "@/lib/core/errors";
import { checksum } from "@/lib/core/evm";
import { log } from "@/lib/core/log";
import { kyberSwapProvider } from "./providers/kyberswap";
import { odosProvider } from "./providers/odos";
import { zeroExProvider } from "./providers/zerox";
import {
  QuoteProviderError,
  type ProviderName,
  type ProviderQuote,
  type QuoteProvider,
  type QuoteRequest,
} from "./types";

export type QuoteStrategy = "best" | "fastest";

const ALL: Record<ProviderName, QuoteProvider> = {
  "0x": zeroExProvider,
  kyberswap: kyberSwapProvider,
  odos: odosProvider,
};

/** QUOTE_PROVIDERS when set; otherwise none on the embedded default (no network), all usable ones elsewhere. */
export function enabledProviders(): QuoteProvider[] {
  const c = config();
  const names = c.QUOTE_PROVIDERS ?? (c.embedded ? [] : (["0x", "kyberswap", "odos"] as ProviderName[]));
  return names.map((n) => ALL[n]);
}

/** Output less the slippage allowance, rounded down: the least the swapper accepts. */
export function minimumAfterSlippage(outputAmount: bigint, slippageBps: number): bigint {
  return (outputAmount * BigInt(10_000 - slippageBps)) / 10_000n;
}

function reason(error: unknown, provider: QuoteProvider): string {
  if (error instanceof QuoteProviderError) return error.message;
  log.warn("quote provider threw", { provider: provider.name, error });
  return `${provider.name}: unexpected failure`;
}

async function collect(providers: QuoteProvider[], request: QuoteRequest, strategy: QuoteStrategy) {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), config().QUOTE_DEADLINE_MS);
  const failures: string[] = [];
  const attempts = providers.map((p) =>
    p.quote(request, controller.signal).catch((error) => {
      failures.push(reason(error, p));
      throw error;
    }),
  );
  try {
    if (strategy === "fastest") {
      const first = await Promise.any(attempts).catch(() => null);
      return { quotes: first ? [first] : [], failures };
    }
    // The deadline aborts stragglers, so allSettled returns by then at the latest.
    const settled = await Promise.allSettled(attempts);
    return { quotes: settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : [])), failures };
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
}

/** Largest output wins; on a tie the provider listed first in QUOTE_PROVIDERS. */
function largest(quotes: ProviderQuote[]): ProviderQuote {
  return quotes.reduce((best, q) => (q.outputAmount > best.outputAmount ? q : best));
}

export async function getSwapQuote(request: QuoteRequest, strategy: QuoteStrategy) {
  if (request.inputToken === request.outputToken) throw badRequest("inputToken and outputToken must differ");
  if (request.inputAmount <= 0n) throw badRequest("inputAmount must be greater than 0");
  const providers = enabledProviders().filter((p) => p.supports(request.chainId));
  if (!providers.length)
    throw providerUnavailable(`no swap quote provider is configured for chain ${request.chainId}`, 60);
  const { quotes, failures } = await collect(providers, request, strategy);
  if (!quotes.length)
    throw providerUnavailable(`no swap quote provider answered (${failures.join("; ") || "deadline passed"})`, 5);
  const chosen = largest(quotes);
  return {
    chainId: request.chainId,
    inputToken: checksum(request.inputToken),
    outputToken: checksum(request.outputToken),
    inputAmount: request.inputAmount.toString(),
    outputAmount: chosen.outputAmount.toString(),
    minOutputAmount: minimumAfterSlippage(chosen.outputAmount, request.slippageBps).toString(),
    slippageBps: request.slippageBps,
    strategy,
    provider: chosen.provider,
    route: chosen.route.map((leg) => ({ ...leg, tokenIn: checksum(leg.tokenIn), tokenOut: checksum(leg.tokenOut) })),
  };
}
