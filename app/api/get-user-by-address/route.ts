// GET /api/get-user-by-address: the profile holding a verified address, fresh within 24 hours
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { userByAddressQuery } from "@/lib/domains/users/schemas";
import { getUserByAddress } from "@/lib/domains/users/service";
import { userObject } from "@/lib/domains/users/responses";

export const GET = route({
  auth: "public",
  summary: "Get the profile of a verified address",
  description:
    "The profile holding the address as a verified address, served within 24 hours of its last fetch from the profile provider. 404 when no profile holds it.",
  query: userByAddressQuery,
  response: userObject,
  cache: cachePolicy.userByAddress,
  handler: ({ query }) => getUserByAddress(query.address),
});
export const OPTIONS = preflight;
