// GET /api/presales: presales indexed from the chain, filtered and paged.
import { preflight, route } from "@/lib/http/route";
import { listPresales } from "@/lib/domains/presales/service";
import { listPresalesQuery } from "@/lib/domains/presales/schemas";
import { presaleListResponse } from "@/lib/domains/presales/responses";

export const GET = route({
  auth: "public",
  summary:
    "Presales indexed from the chain: filter by chain and status (a number, all, or successful), newest first, limit/offset",
  query: listPresalesQuery,
  response: presaleListResponse,
  handler: ({ query }) => listPresales(query),
});

export const OPTIONS = preflight;
