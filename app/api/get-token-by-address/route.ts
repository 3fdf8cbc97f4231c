// GET /api/get-token-by-address: one token by EVM address or Solana mint, with social URLs and verified addresses
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { tokenByAddressQuery } from "@/lib/domains/tokens/schemas";
import { tokenByAddress } from "@/lib/domains/tokens/service";
import { tokenByAddressResponse } from "@/lib/domains/tokens/responses";

export const GET = route({
  auth: "partner",
  summary: "Get a token by address",
  description:
    "One token by EVM contract address or Solana mint, with its social URLs and the requester's verified addresses. 404 when the service does not know it. Partner answers are private (cached by the caller only).",
  query: tokenByAddressQuery,
  response: tokenByAddressResponse,
  cache: cachePolicy.tokenByAddress,
  handler: ({ query }) => tokenByAddress(query.address),
});
