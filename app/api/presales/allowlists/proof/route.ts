// GET /api/presales/allowlists/proof: a buyer's allowlist proof and allowed amount (isAllowed false if not listed).
import { preflight, route } from "@/lib/http/route";
import { allowlistProof } from "@/lib/domains/presales/service";
import { proofQuery } from "@/lib/domains/presales/schemas";
import { allowlistProofResponse } from "@/lib/domains/presales/responses";

export const GET = route({
  auth: "public",
  summary: "Get a buyer's allowlist proof",
  description:
    "A buyer's Merkle proof on a presale's allowlist and their allowed amount (the largest of their leaves, in wei and ETH). `isAllowed` is false, with an empty proof and zero amounts, when the buyer is not on the allowlist; 404 when the presale has no allowlist.",
  query: proofQuery,
  response: allowlistProofResponse,
  handler: ({ query }) => allowlistProof(query.presaleId, query.chainId, query.buyerAddress),
});

export const OPTIONS = preflight;
