// GET /api/tokens/fetch-deployed-by-address: tokens deployed by an address (msg_sender), newest first, by cursor,
// page or offset
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { deployedByAddressQuery } from "@/lib/domains/tokens/schemas";
import { deployedByAddress } from "@/lib/domains/tokens/service";
import { tokenListResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "public",
  summary: "List tokens deployed by an address",
  description:
    "Tokens whose deploying transaction was sent by the address (msg_sender), newest first, `limit` a page (1 to 20, default 10), by cursor, or by `page` or `offset` as the earlier API's clients page (with a cursor, they count from it).",
  query: deployedByAddressQuery,
  response: tokenListResponse,
  cache: cachePolicy.tokensList,
  handler: ({ query }) => deployedByAddress(query),
});
export const OPTIONS = preflight;
