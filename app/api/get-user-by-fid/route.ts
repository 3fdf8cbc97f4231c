// GET /api/get-user-by-fid: the profile of one FID (the provider's user object), fresh within 5 minutes
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByFidQuery } from "@/lib/domains/users/schemas";
import { getUserByFid } from "@/lib/domains/users/service";
import { userObject } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "Get the profile of a FID",
  description:
    "The profile of one FID (the provider's user object), served within 5 minutes of its last fetch. 404 for an unknown FID; a provider failure answers the stored profile, else 503.",
  query: userByFidQuery,
  response: userObject,
  cache: cachePolicy.userByFid,
  handler: ({ query }) => getUserByFid(query.fid),
});
export const OPTIONS = preflight;
