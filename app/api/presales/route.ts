// GET /api/presales: presales indexed from the chain, filtered and paged.
import { preflight, route } from "@/lib/http/route";
import { listPresales } from "@/lib/presales/service";
import { listPresalesQuery } from "@/lib/presales/schemas";

export const GET = route({
  auth: "public",
  query: listPresalesQuery,
  handler: ({ query }) => listPresales(query),
});

export const OPTIONS = preflight;
