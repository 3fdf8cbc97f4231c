// GET /api/airdrops: a claimer's airdrop amounts; POST /api/airdrops: save (or enqueue) a token's airdrop tree.
import { preflight, route } from "@/lib/http/route";
import { claimAmounts, saveAirdrop } from "@/lib/domains/airdrops/service";
import { airdropUploadBody, claimerQuery } from "@/lib/domains/airdrops/schemas";
import { airdropUploadResponse, claimAmountsResponse } from "@/lib/domains/airdrops/responses";
import { limitUploads } from "@/lib/domains/merkle/upload";

export const GET = route({
  auth: "public",
  summary: "Get a claimer's airdrop amounts",
  description:
    "The amounts (wei, decimal strings) the claimer can claim from a token's airdrop, one per leaf, largest first; an empty list when the claimer has none. 404 when the token has no airdrop tree. Any address case is accepted.",
  query: claimerQuery,
  response: claimAmountsResponse,
  handler: ({ query }) => claimAmounts(query.tokenAddress, query.claimerAddress),
});

export const POST = route({
  auth: "public",
  summary: "Upload a token's airdrop tree",
  description:
    "Stores the airdrop's Merkle tree (an OpenZeppelin StandardMerkleTree dump of (address, uint256) leaves) so that claim amounts and proofs can be served. Accepted only for an indexed token (404 otherwise) whose airdrop extension holds `merkleRoot` on chain (422 for another root or none; 503 when the chain cannot be read). The body is read as a stream (up to MERKLE_MAX_BODY_BYTES and MERKLE_MAX_LEAVES) and validated completely before anything is stored: the first bad member, leaf or node is named in a 400 or 422. The tree is published at once, or, with `enqueue: true`, kept and published by a job after `delaySeconds`. Uploading the current tree again answers `unchanged: true` and writes nothing. No credentials: the chain's root is the authority. So a tree is stored only once its root is on chain, and the order that works is: build the tree, deploy the token with the airdrop extension holding its root (the deploy body's `airdrop.merkleRoot`), wait until the token is indexed (GET /api/tokens/deploy/{requestKey} says `deployed`, or POST /api/tokens/index), then upload. An upload before that is a 404 or 422 without `success`, which the platform SDK's `registerAirdrop` returns as undefined: upload again after the deployment.",
  response: airdropUploadResponse,
  quota:
    "More than MERKLE_UPLOADS_PER_HOUR tree uploads from the client IP in an hour, or another of its uploads still being read (MERKLE_MAX_UPLOADS_PER_CLIENT)",
  documentedBody: airdropUploadBody,
  rawBody: true, // streamed: a million-leaf dump is ~250 MB (lib/domains/merkle/upload.ts)
  handler: async ({ request, ip, setHeader }) => {
    await limitUploads(ip, setHeader);
    return saveAirdrop(request, ip);
  },
});

export const OPTIONS = preflight;
