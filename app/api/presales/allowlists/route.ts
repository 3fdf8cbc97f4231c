// GET /api/presales/allowlists: a presale's allowlist root and allocations; POST: save its allowlist tree.
import { preflight, route } from "@/lib/http/route";
import { getAllowlist, saveAllowlist } from "@/lib/domains/presales/service";
import { allowlistQuery } from "@/lib/domains/presales/schemas";
import { allowlistResponse, allowlistUploadResponse } from "@/lib/domains/presales/responses";
import { limitUploads } from "@/lib/domains/merkle/upload";

export const GET = route({
  auth: "public",
  summary: "A presale's allowlist: its Merkle root and one page of allocations (wei and exact ETH), cursor-paged",
  query: allowlistQuery,
  response: allowlistResponse,
  handler: ({ query }) => getAllowlist(query.presaleId, query.chainId, query.limit, query.cursor),
});

export const POST = route({
  auth: "public",
  summary:
    "Save a presale's allowlist: { presaleId, chainId, merkleRoot, tree } with a standard-v1 (address, uint256) dump, accepted only when the presale holds merkleRoot (indexed, else read from the chain: 404 unknown presale, 422 another root, 503 chain unreadable), validated completely, then published at once",
  response: allowlistUploadResponse,
  quota: "More than MERKLE_UPLOADS_PER_HOUR tree uploads from the client IP in an hour",
  rawBody: true, // streamed: large allowlists are hundreds of MB (lib/domains/merkle/upload.ts)
  handler: async ({ request, ip, setHeader }) => {
    await limitUploads(ip, setHeader);
    return saveAllowlist(request);
  },
});

export const OPTIONS = preflight;
