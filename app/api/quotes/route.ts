// GET /api/quotes: a swap quote from the configured aggregators (best output or fastest answer)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { quoteQuery, quoteResponse } from "@/lib/domains/quotes/schemas";
import { getSwapQuote } from "@/lib/domains/quotes/service";

export const GET = route({
  auth: "public",
  summary: "Get a swap quote",
  description:
    "A swap quote from the configured aggregators (0x, KyberSwap, Odos): `best` asks all of them and keeps the largest output arriving within QUOTE_DEADLINE_MS; `fastest` answers the first valid quote. Amounts are base units as decimal strings; `minOutputAmount` is the output less `slippageBps`. 503 when every provider fails (or none is configured), naming each reason.",
  query: quoteQuery,
  response: quoteResponse,
  cache: cachePolicy.none,
  rateLimit: { name: "quotes", limit: 60, windowSeconds: 60 },
  handler: ({ query }) => getSwapQuote({ ...query, inputAmount: BigInt(query.inputAmount) }, query.strategy),
});

export const OPTIONS = preflight;
