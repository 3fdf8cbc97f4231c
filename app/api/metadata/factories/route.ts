// GET /api/metadata/factories: trusted factory contracts per chain (configured and extra) with their event selectors
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { factoriesResponse, listFactories } from "@/lib/domains/launch/factories";

export const GET = route({
  auth: "public",
  summary:
    "The token factories trusted on each served chain (FACTORY_ADDRESS_<chainId> and TOKEN_INDEX_EXTRA_FACTORIES), with the TokenCreated event selector",
  response: factoriesResponse,
  cache: cachePolicy.factories,
  handler: () => listFactories(),
});

export const OPTIONS = preflight;
