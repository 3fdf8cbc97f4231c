// GET /api/metadata/chains: the chains the service serves, named from viem's chain list (the explorer's chain filter)
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { chainsQuery, chainsResponse, listChains } from "@/lib/domains/launch/chains";

export const GET = route({
  auth: "public",
  summary: "List the served chains",
  description:
    "The chains the service serves (the default chain, 8453, and every chain with RPC_URL_<chainId>), in chain id order, each with its name from viem's chain list; then the other chain ids asked in `ids`, named the same way (`Chain <id>` for one the list lacks). Cached an hour at the edge.",
  query: chainsQuery,
  response: chainsResponse,
  cache: cachePolicy.factories,
  handler: ({ query }) => listChains(query),
});
export const OPTIONS = preflight;
