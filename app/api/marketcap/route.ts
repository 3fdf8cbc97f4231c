// GET /api/marketcap: a token's market cap in USD, read from its pool on chain
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { getMarketCap, marketCapQuery, marketCapResponse } from "@/lib/domains/tokens/market/marketcap";

export const maxDuration = 60;

export const GET = route({
  auth: "public",
  summary: "Get a token's market cap",
  description:
    "A token's market cap in USD: its total supply at the price of its V3-style pool, read on chain. The paired token is valued through the ETH/USD feed (WETH), at 1 USD (configured stablecoins) or through its configured WETH pool. 400 when the pool does not hold the token or is not a pool; 422 when the paired token cannot be valued or the pool is not initialised; 503 when the RPC or the feed fails. Cached 5 s at the edge.",
  query: marketCapQuery,
  parameterDescriptions: {
    poolAddress: "the token's V3-style pool (slot0, token0, token1 are read from it)",
    tokenAddress: "the token, one of the pool's two tokens",
    chainId: "the chain of the pool",
  },
  response: marketCapResponse,
  cache: cachePolicy.marketcap,
  handler: ({ query }) => getMarketCap(query),
});

export const OPTIONS = preflight;
