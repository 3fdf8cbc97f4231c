// GET /api/presales: presales indexed from the chain, filtered and paged.
import { preflight, route } from "@/lib/http/route";
import { listPresales } from "@/lib/domains/presales/service";
import { listPresalesQuery } from "@/lib/domains/presales/schemas";
import { presaleListResponse } from "@/lib/domains/presales/responses";

export const GET = route({
  auth: "public",
  summary: "List presales",
  description:
    "Presales indexed from the chain, newest first (or oldest with `sort=asc`), filtered by chain and status (a status number, `all`, or `successful`), paged by `limit` and `offset`, with the total count.",
  query: listPresalesQuery,
  response: presaleListResponse,
  handler: ({ query }) => listPresales(query),
});

export const OPTIONS = preflight;
