// GET /api/get-estimated-uncollected-fees/{address}: (deprecated) uncollected fees of a token per recipient
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { DEPRECATION_HEADERS, uncollectedFeesParams, uncollectedFeesQuery } from "@/lib/domains/rewards/fees/schemas";
import { estimateUncollectedFees } from "@/lib/domains/rewards/fees/estimates";
import { uncollectedFeesResponse } from "@/lib/domains/rewards/fees/responses";

export const GET = route({
  auth: "public",
  summary: "Estimate a token's uncollected fees (deprecated)",
  description:
    "Deprecated (answers carry `Deprecation: true`). What each reward recipient of the token can still collect, read from the chain with one multicall.",
  deprecated: true,
  params: uncollectedFeesParams,
  query: uncollectedFeesQuery,
  response: uncollectedFeesResponse,
  cache: cachePolicy.none,
  headers: DEPRECATION_HEADERS,
  handler: ({ params, query }) =>
    estimateUncollectedFees({ by: "address", value: params.address, chainId: query.chainId }),
});
export const OPTIONS = preflight;
