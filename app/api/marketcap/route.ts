// GET /api/marketcap: a token's market cap in USD, read from its pool on chain
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { getMarketCap, marketCapQuery, marketCapResponse } from "@/lib/domains/tokens/market/marketcap";

export const GET = route({
  auth: "public",
  summary:
    "A token's market cap in USD from its V3-style pool's price on chain (WETH via the ETH/USD feed, configured stablecoins at 1 USD, other paired tokens via their configured WETH pool)",
  query: marketCapQuery,
  response: marketCapResponse,
  cache: cachePolicy.marketcap,
  handler: ({ query }) => getMarketCap(query),
});

export const OPTIONS = preflight;
