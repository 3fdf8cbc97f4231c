// POST /api/tokens/fetch-by-pool-addresses: tokens of up to 100 pools, keyed by lowercase pool address
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { byPoolAddressesBody } from "@/lib/domains/tokens/schemas";
import { tokensByPools } from "@/lib/domains/tokens/service";
import { tokensByPoolsResponse } from "@/lib/domains/tokens/responses";

export const POST = route({
  auth: "public",
  summary: "Get the tokens of several pools",
  description: "The tokens of up to 100 pool addresses or v4 pool ids, in one query, keyed by lowercase pool address.",
  body: byPoolAddressesBody,
  maxBodyBytes: 64 * 1024,
  response: tokensByPoolsResponse,
  cache: cachePolicy.none,
  handler: ({ body }) => tokensByPools(body.poolAddresses),
});
export const OPTIONS = preflight;
