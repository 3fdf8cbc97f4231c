// GET /api/presales/allowlists/proof: a buyer's allowlist proof and allowed amount (isAllowed false if not listed).
import { preflight, route } from "@/lib/http/route";
import { allowlistProof } from "@/lib/domains/presales/service";
import { proofQuery } from "@/lib/domains/presales/schemas";
import { allowlistProofResponse } from "@/lib/domains/presales/responses";

export const GET = route({
  auth: "public",
  summary:
    "A buyer's allowlist proof and allowed amount (the largest of their leaves); isAllowed false when not listed",
  query: proofQuery,
  response: allowlistProofResponse,
  handler: ({ query }) => allowlistProof(query.presaleId, query.chainId, query.buyerAddress),
});

export const OPTIONS = preflight;
