// GET /api/get-user-by-address: the profile holding a verified address, fresh within 24 hours
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByAddressQuery } from "@/lib/domains/users/schemas";
import { getUserByAddress } from "@/lib/domains/users/service";
import { userObject } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "The profile holding a verified address",
  query: userByAddressQuery,
  response: userObject,
  cache: cachePolicy.userByAddress,
  handler: ({ query }) => getUserByAddress(query.address),
});
export const OPTIONS = preflight;
