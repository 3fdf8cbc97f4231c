// GET /api/get-multiple-users-by-fid: profiles of up to 100 comma-separated FIDs, as { users }
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { multipleUsersQuery } from "@/lib/domains/users/schemas";
import { getUsersByFids } from "@/lib/domains/users/service";
import { multipleUsersResponse } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "Profiles of up to 100 FIDs as { users }",
  query: multipleUsersQuery,
  response: multipleUsersResponse,
  cache: cachePolicy.userByFid,
  handler: ({ query }) => getUsersByFids(query.fids ?? []),
});
export const OPTIONS = preflight;
