// POST /api/tokens/index-by-address: index a base-chain token from its TokenCreated log (5/min per IP, 1/hour per address)
import { preflight, route } from "@/lib/http/route";
import { indexByAddressResponse } from "@/lib/domains/launch/indexer/responses";
import { indexByAddressBody, indexByAddressIpLimit, indexTokenByAddress } from "@/lib/domains/launch/indexer/service";

export const POST = route({
  auth: "public",
  body: indexByAddressBody,
  rateLimit: indexByAddressIpLimit,
  summary: "Finds the token's TokenCreated event on chain 8453 and upserts the token",
  response: indexByAddressResponse,
  handler: ({ body }) => indexTokenByAddress(body.address),
});

export const OPTIONS = preflight;
