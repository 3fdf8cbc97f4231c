// GET /api/airdrops/claim: the Merkle proofs a claimer submits to claim a token's airdrop.
import { preflight, route } from "@/lib/http/route";
import { claimProofs } from "@/lib/domains/airdrops/service";
import { claimerQuery } from "@/lib/domains/airdrops/schemas";
import { claimProofsResponse } from "@/lib/domains/airdrops/responses";

export const GET = route({
  auth: "public",
  summary:
    "The claimer's Merkle proofs, one per leaf with the entry it proves, each verified against the root before it is answered",
  query: claimerQuery,
  response: claimProofsResponse,
  handler: ({ query }) => claimProofs(query.tokenAddress, query.claimerAddress),
});

export const OPTIONS = preflight;
