// GET /api/get-multiple-users-by-fid: profiles of up to 100 comma-separated FIDs, as { users }
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { multipleUsersQuery } from "@/lib/domains/users/schemas";
import { getUsersByFids } from "@/lib/domains/users/service";
import { multipleUsersResponse } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "Get profiles by FID",
  description:
    "The profiles of up to 100 comma-separated FIDs as `{ users }`, in the order asked; unknown FIDs are left out. Stored profiles are served within 5 minutes of their last fetch; stale or missing ones are fetched from the profile provider in one bulk call (a provider failure answers the stored profiles, else 503).",
  query: multipleUsersQuery,
  response: multipleUsersResponse,
  cache: cachePolicy.userByFid,
  handler: ({ query }) => getUsersByFids(query.fids ?? []),
});
export const OPTIONS = preflight;
