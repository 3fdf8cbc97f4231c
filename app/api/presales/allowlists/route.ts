// GET /api/presales/allowlists: a presale's allowlist root and allocations; POST: save its allowlist tree.
import { preflight, route } from "@/lib/http/route";
import { getAllowlist, saveAllowlist } from "@/lib/domains/presales/service";
import { allowlistQuery, allowlistUploadBody } from "@/lib/domains/presales/schemas";
import { allowlistResponse, allowlistUploadResponse } from "@/lib/domains/presales/responses";
import { limitUploads } from "@/lib/domains/merkle/upload";

export const GET = route({
  auth: "public",
  summary: "List a presale's allowlist",
  description:
    "A presale's allowlist: its Merkle root and one page of allocations (wei and exact ETH) in address order. Page with `limit` and `nextCursor`; a cursor pins its tree (409 once a newer upload has replaced and deleted it: start again without a cursor). 404 when the presale has no allowlist.",
  query: allowlistQuery,
  response: allowlistResponse,
  handler: ({ query }) => getAllowlist(query.presaleId, query.chainId, query.limit, query.cursor),
});

export const POST = route({
  auth: "public",
  summary: "Upload a presale's allowlist tree",
  description:
    "Stores a presale's allowlist: a standard-v1 (address, uint256) StandardMerkleTree dump. Accepted only when the presale holds `merkleRoot` (its indexed root, else read from the presale contract): 404 for an unknown presale, 422 for another root, 503 when the chain cannot be read. Read as a stream and validated completely before anything is stored, then published at once; the current tree again answers `unchanged: true`. No credentials: the chain's root is the authority.",
  response: allowlistUploadResponse,
  quota:
    "More than MERKLE_UPLOADS_PER_HOUR tree uploads from the client IP in an hour, or another of its uploads still being read (MERKLE_MAX_UPLOADS_PER_CLIENT)",
  documentedBody: allowlistUploadBody,
  rawBody: true, // streamed: large allowlists are hundreds of MB (lib/domains/merkle/upload.ts)
  handler: async ({ request, ip, setHeader }) => {
    await limitUploads(ip, setHeader);
    return saveAllowlist(request, ip);
  },
});

export const OPTIONS = preflight;
