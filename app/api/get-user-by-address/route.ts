// GET /api/get-user-by-address: the profile holding a verified address, fresh within 24 hours
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByAddressQuery } from "@/lib/users/schemas";
import { getUserByAddress } from "@/lib/users/service";
import { userObject } from "@/lib/users/responses";

export const GET = route({
  auth: "public",
  summary: "The profile holding a verified address",
  query: userByAddressQuery,
  response: userObject,
  cache: cachePolicy.userByAddress,
  handler: ({ query }) => getUserByAddress(query.address),
});
export const OPTIONS = preflight;
