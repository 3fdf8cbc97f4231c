// GET /api/airdrops/claim: the Merkle proofs a claimer submits to claim a token's airdrop.
import { preflight, route } from "@/lib/http/route";
import { claimProofs } from "@/lib/domains/airdrops/service";
import { claimerQuery } from "@/lib/domains/airdrops/schemas";
import { claimProofsResponse } from "@/lib/domains/airdrops/responses";

export const GET = route({
  auth: "public",
  summary: "Get a claimer's airdrop proofs",
  description:
    "The claimer's Merkle proofs for a token's airdrop: one per leaf of the claimer, each with the entry (account, amount) it proves, largest amount first. Every proof is verified against the tree's root before it is answered, and works with OpenZeppelin's MerkleProof (standard-v1 leaves). An empty list when the claimer has no leaf; 404 when the token has no airdrop tree.",
  query: claimerQuery,
  response: claimProofsResponse,
  handler: ({ query }) => claimProofs(query.tokenAddress, query.claimerAddress),
});

export const OPTIONS = preflight;
