// GET /api/airdrops: a claimer's airdrop amounts; POST /api/airdrops: save (or enqueue) a token's airdrop tree.
import { preflight, route } from "@/lib/http/route";
import { claimAmounts, saveAirdrop } from "@/lib/domains/airdrops/service";
import { claimerQuery } from "@/lib/domains/airdrops/schemas";
import { airdropUploadResponse, claimAmountsResponse } from "@/lib/domains/airdrops/responses";
import { limitUploads } from "@/lib/domains/merkle/upload";

export const GET = route({
  auth: "public",
  summary: "A claimer's airdrop amounts in wei, one per leaf, largest first",
  query: claimerQuery,
  response: claimAmountsResponse,
  handler: ({ query }) => claimAmounts(query.tokenAddress, query.claimerAddress),
});

export const POST = route({
  auth: "public",
  summary:
    "Save a token's airdrop tree: { tokenAddress, merkleRoot, tree, enqueue, delaySeconds }, accepted only for an indexed token (404) whose airdrop holds merkleRoot on chain (422 otherwise, 503 when the chain cannot be read), validated completely; published at once, or by a job after delaySeconds with enqueue",
  response: airdropUploadResponse,
  quota: "More than MERKLE_UPLOADS_PER_HOUR tree uploads from the client IP in an hour",
  rawBody: true, // streamed: a million-leaf dump is ~250 MB (lib/domains/merkle/upload.ts)
  handler: async ({ request, ip, setHeader }) => {
    await limitUploads(ip, setHeader);
    return saveAirdrop(request);
  },
});

export const OPTIONS = preflight;
