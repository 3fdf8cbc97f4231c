// GET /api/metadata/factories: configured factory contracts per chain with their event selectors
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { listFactories } from "@/lib/metadata/factories";

export const GET = route({
  auth: "public",
  cache: cachePolicy.factories,
  handler: () => listFactories(),
});

export const OPTIONS = preflight;
