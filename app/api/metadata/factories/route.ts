// GET /api/metadata/factories: trusted factory contracts per chain (every generation) with their event selectors
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { factoriesResponse, listFactories } from "@/lib/domains/launch/factories";

export const GET = route({
  auth: "public",
  summary: "List the trusted token factories",
  description:
    "The token factories the indexer trusts on each served chain (FACTORY_ADDRESS_<chainId>, then TOKEN_INDEX_EXTRA_FACTORIES, then the earlier generations' factories TOKEN_INDEX_GENERATIONS selects), in chain id order, each named by its generation with the topic of its own TokenCreated event. Cached an hour at the edge.",
  response: factoriesResponse,
  cache: cachePolicy.factories,
  handler: () => listFactories(),
});

export const OPTIONS = preflight;
