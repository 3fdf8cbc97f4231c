// GET /api/metadata/factories: configured factory contracts per chain with their event selectors
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { factoriesResponse, listFactories } from "@/lib/metadata/factories";

export const GET = route({
  auth: "public",
  summary: "The token factory configured on each served chain, with the TokenCreated event selector",
  response: factoriesResponse,
  cache: cachePolicy.factories,
  handler: () => listFactories(),
});

export const OPTIONS = preflight;
