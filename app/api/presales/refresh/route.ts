// GET /api/presales/refresh: enqueue re-reading a presale transaction from the chain.
import { preflight, route } from "@/lib/http/route";
import { refreshPresale } from "@/lib/domains/presales/service";
import { refreshQuery } from "@/lib/domains/presales/schemas";
import { presaleRefreshResponse } from "@/lib/domains/presales/responses";

export const maxDuration = 60;

export const GET = route({
  auth: "public",
  summary: "Re-read a presale transaction",
  description:
    "Enqueues a job that reads the transaction's receipt, decodes the presale contract's events and upserts the presales they name. The answer only says the job is enqueued; an unknown or unrelated transaction is recorded as a failed job.",
  query: refreshQuery,
  response: presaleRefreshResponse,
  rateLimit: { name: "presale-refresh", limit: 60, windowSeconds: 60 },
  handler: ({ query }) => refreshPresale(query.txHash, query.chainId),
});

export const OPTIONS = preflight;
