// GET /api/tokens/trending: the aggregator's trending pools that are our tokens' pools, cached 5 minutes
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { getTrending, trendingQuery } from "@/lib/domains/tokens/trending";
import { trendingResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "List trending tokens",
  description:
    "The market-data aggregator's trending pools of the chain that are pools of our tokens, in the requested order, with each pool's market attributes and token. Cached 5 minutes; when the aggregator fails, the last cached answer (marked by `x-trending-stale`), else 503.",
  query: trendingQuery,
  parameterDescriptions: {
    page: "which page of the aggregator's trending pools (1 is the most trending)",
    order:
      "`<window>_trending` keeps the aggregator's ranking for the window (m5, h1, h6, h24); `<window>_<price_change_percentage|volume_usd|tx_count>_<asc|desc>` re-orders the page by that metric",
    chainId: "the chain whose trending pools are asked for",
  },
  response: trendingResponse,
  cache: cachePolicy.trending,
  handler: ({ query, setHeader }) => getTrending(query, setHeader),
});
export const OPTIONS = preflight;
