// POST /api/tokens/index-by-address: index a base-chain token from its TokenCreated log (5/min per IP; a log
// search: 1/hour per address and IP)
import { preflight, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";
import { indexByAddressResponse } from "@/lib/domains/launch/indexer/responses";
import { indexByAddressBody, indexByAddressIpLimit, indexTokenByAddress } from "@/lib/domains/launch/indexer/service";

export const maxDuration = 60;

export const POST = route({
  auth: "public",
  body: indexByAddressBody,
  rateLimit: indexByAddressIpLimit,
  summary: "Index a token by address",
  description:
    "Finds the token's TokenCreated event on chain 8453 (a known transaction first, else a search back from the chain's head) and upserts the token; answers its page (`url`). 404 when no trusted factory created it. 5 requests a minute per IP. A token with a known transaction (indexed already, or deployed through this service) is read from its receipt; a search of the logs is allowed one an hour per address and IP (429 with Retry-After).",
  response: indexByAddressResponse,
  handler: ({ body, request, ip }) => indexTokenByAddress(body.address, publicOrigin(request), ip),
});

export const OPTIONS = preflight;
