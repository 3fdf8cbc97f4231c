// POST /api/tokens/index-by-address: index a base-chain token from its TokenCreated log (5/min per IP, 1/hour per address)
import { preflight, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";
import { indexByAddressResponse } from "@/lib/domains/launch/indexer/responses";
import { indexByAddressBody, indexByAddressIpLimit, indexTokenByAddress } from "@/lib/domains/launch/indexer/service";

export const POST = route({
  auth: "public",
  body: indexByAddressBody,
  rateLimit: indexByAddressIpLimit,
  summary: "Index a token by address",
  description:
    "Finds the token's TokenCreated event on chain 8453 (a known transaction first, else a search back from the chain's head) and upserts the token; answers its page (`url`). 404 when no trusted factory created it. 5 requests a minute per IP and one an hour per address.",
  response: indexByAddressResponse,
  handler: ({ body, request }) => indexTokenByAddress(body.address, publicOrigin(request)),
});

export const OPTIONS = preflight;
