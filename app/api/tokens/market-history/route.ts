// GET /api/tokens/market-history: a token's stored market snapshots over time (the token page's chart)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { marketHistoryQuery } from "@/lib/domains/tokens/schemas";
import { marketHistory } from "@/lib/domains/tokens/service";
import { marketHistoryResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "Get a token's market history",
  description:
    "The market cap, price and 24 h volume the market refresh stored for the token, one snapshot per refresh, oldest first, over the last `days` days (at most the 500 newest). Snapshots older than the retention period (MARKET_SNAPSHOT_RETENTION_DAYS) are deleted daily; a token that has not traded yet has none. 404 when no token has the address on the chain. Cached 60 s at the edge.",
  query: marketHistoryQuery,
  response: marketHistoryResponse,
  cache: cachePolicy.marketHistory,
  handler: ({ query }) => marketHistory(query),
});
export const OPTIONS = preflight;
