// GET /api/admin/keys/{id}/usage: a partner API key's requests by route and status, and deployments, per UTC day
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { keyIdParams, keyUsageAnswer } from "@/lib/domains/partners/schemas";
import { keyUsage } from "@/lib/domains/partners/service";
import { usageQuery } from "@/lib/domains/partners/usage";

export const GET = route({
  auth: "admin",
  summary: "Read a partner API key's usage",
  description:
    "Per UTC day, today first: the key's requests by route and status, and its accepted deployments. Days are kept 32 days. 404 for an unknown id. Admin session or admin user token.",
  params: keyIdParams,
  query: usageQuery,
  response: keyUsageAnswer,
  cache: cachePolicy.none,
  handler: ({ params, query }) => keyUsage(params.id, query.days),
});
