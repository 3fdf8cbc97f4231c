// GET /api/airdrops/claim: the Merkle proofs a claimer submits to claim a token's airdrop.
import { preflight, route } from "@/lib/http/route";
import { claimProofs } from "@/lib/airdrops/service";
import { claimerQuery } from "@/lib/airdrops/schemas";

export const GET = route({
  auth: "public",
  query: claimerQuery,
  handler: ({ query }) => claimProofs(query.tokenAddress, query.claimerAddress),
});

export const OPTIONS = preflight;
