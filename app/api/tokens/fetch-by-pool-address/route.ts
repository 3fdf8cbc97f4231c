// GET /api/tokens/fetch-by-pool-address: the token of a pool address or v4 pool id ({} when none)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { byPoolAddressQuery } from "@/lib/domains/tokens/schemas";
import { tokenByPool } from "@/lib/domains/tokens/service";
import { tokenByPoolResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "Get the token of a pool",
  description:
    "The token whose pool is the address (a V3-style pool) or the Uniswap v4 pool id, as `{ data }`; `{}` when none.",
  query: byPoolAddressQuery,
  response: tokenByPoolResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query }) => tokenByPool(query.poolAddress),
});
export const OPTIONS = preflight;
