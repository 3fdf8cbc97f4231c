// GET /api/get-user-by-name: the profile with a username, or 404
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByNameQuery } from "@/lib/domains/users/schemas";
import { getUserByName } from "@/lib/domains/users/service";
import { userObject } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "The profile with a username, or 404",
  query: userByNameQuery,
  response: userObject,
  cache: cachePolicy.userByFid,
  handler: ({ query }) => getUserByName(query.name),
});
export const OPTIONS = preflight;
