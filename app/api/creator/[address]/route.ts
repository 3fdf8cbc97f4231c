// GET /api/creator/{address}: a creator wallet's profile and launch statistics, cached 30 s
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { creatorParams } from "@/lib/domains/users/creators/schemas";
import { creatorProfile } from "@/lib/domains/users/creators/profile";
import { creatorProfileResponse } from "@/lib/domains/users/creators/responses";

export const GET = route({
  auth: "public",
  summary: "A creator wallet's profile and launch statistics",
  params: creatorParams,
  response: creatorProfileResponse,
  cache: cachePolicy.creator,
  handler: ({ params }) => creatorProfile(params.address),
});
export const OPTIONS = preflight;
