// GET /api/creator/{address}: a creator wallet's profile and launch statistics, cached 30 s
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { creatorParams } from "@/lib/domains/creators/schemas";
import { creatorProfile } from "@/lib/domains/creators/profile";
import { creatorProfileResponse } from "@/lib/domains/creators/responses";

export const GET = route({
  auth: "public",
  summary: "Get a creator's profile and statistics",
  description:
    "A creator wallet's profile (the profile holding the address, when one is known) and its launch statistics: tokens launched, per chain, and the market cap of its newest tokens. Cached 30 s at the edge.",
  params: creatorParams,
  response: creatorProfileResponse,
  cache: cachePolicy.creator,
  handler: ({ params }) => creatorProfile(params.address),
});
export const OPTIONS = preflight;
