// GET /api/presales/allowlists: a presale's allowlist root and allocations; POST: save its allowlist tree.
import { preflight, route } from "@/lib/http/route";
import { getAllowlist, saveAllowlist } from "@/lib/presales/service";
import { allowlistQuery } from "@/lib/presales/schemas";
import { limitUploads } from "@/lib/merkle/upload";

export const GET = route({
  auth: "public",
  query: allowlistQuery,
  handler: ({ query }) => getAllowlist(query.presaleId, query.chainId, query.limit, query.cursor),
});

export const POST = route({
  auth: "public",
  rawBody: true, // streamed: large allowlists are hundreds of MB (lib/merkle/upload.ts)
  handler: async ({ request, ip, setHeader }) => {
    await limitUploads(ip, setHeader);
    return saveAllowlist(request);
  },
});

export const OPTIONS = preflight;
