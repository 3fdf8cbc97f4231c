// GET /api/presales/allowlists/proof: a buyer's allowlist proof and allowed amount (isAllowed false if not listed).
import { preflight, route } from "@/lib/http/route";
import { allowlistProof } from "@/lib/presales/service";
import { proofQuery } from "@/lib/presales/schemas";

export const GET = route({
  auth: "public",
  query: proofQuery,
  handler: ({ query }) => allowlistProof(query.presaleId, query.chainId, query.buyerAddress),
});

export const OPTIONS = preflight;
