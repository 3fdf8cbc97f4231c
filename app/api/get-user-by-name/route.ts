// GET /api/get-user-by-name: the profile with a username, or 404
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByNameQuery } from "@/lib/domains/users/schemas";
import { getUserByName } from "@/lib/domains/users/service";
import { userObject } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "Get a profile by username",
  description: "The profile with the username (case-insensitive, a leading @ ignored). 404 when nobody has it.",
  query: userByNameQuery,
  response: userObject,
  cache: cachePolicy.userByFid,
  handler: ({ query }) => getUserByName(query.name),
});
export const OPTIONS = preflight;
