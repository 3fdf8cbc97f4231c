// GET /api/partner/usage: the calling API key's own requests by route and status, and deployments, per UTC day
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { keyUsageAnswer } from "@/lib/domains/partners/schemas";
import { keyUsage } from "@/lib/domains/partners/service";
import { usageQuery } from "@/lib/domains/partners/usage";

export const GET = route({
  auth: "partner",
  summary: "Read your API key's usage",
  description:
    "Per UTC day, today first: the calling key's requests by route and status (this one included once answered), and its accepted deployments. Any live key may call it, whatever its scopes. Days are kept 32 days.",
  query: usageQuery,
  response: keyUsageAnswer,
  cache: cachePolicy.none,
  handler: ({ principal, query }) => keyUsage(principal.partnerId, query.days),
});
