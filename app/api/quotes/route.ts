// GET /api/quotes: a swap quote from the configured aggregators (best output or fastest answer)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { quoteQuery, quoteResponse } from "@/lib/domains/quotes/schemas";
import { getSwapQuote } from "@/lib/domains/quotes/service";

export const GET = route({
  auth: "public",
  summary:
    "A swap quote from the configured aggregators: best (largest output within the deadline) or fastest (first valid answer)",
  query: quoteQuery,
  response: quoteResponse,
  cache: cachePolicy.none,
  rateLimit: { name: "quotes", limit: 60, windowSeconds: 60 },
  handler: ({ query }) => getSwapQuote({ ...query, inputAmount: BigInt(query.inputAmount) }, query.strategy),
});

export const OPTIONS = preflight;
