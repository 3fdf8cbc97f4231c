// GET /api/marketcap: a token's market cap in USD, read from its pool on chain
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { getMarketCap, marketCapQuery } from "@/lib/market/marketcap";

export const GET = route({
  auth: "public",
  query: marketCapQuery,
  cache: cachePolicy.marketcap,
  handler: ({ query }) => getMarketCap(query),
});

export const OPTIONS = preflight;
