// GET /api/tokens/trending: the aggregator's trending pools that are our tokens' pools, cached 5 minutes
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { getTrending, trendingQuery } from "@/lib/domains/tokens/trending";
import { trendingResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary:
    "The aggregator's trending pools of the chain that are our tokens' pools, in the requested order; cached 5 minutes",
  query: trendingQuery,
  response: trendingResponse,
  cache: cachePolicy.trending,
  handler: ({ query, setHeader }) => getTrending(query, setHeader),
});
export const OPTIONS = preflight;
