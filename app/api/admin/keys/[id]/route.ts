// GET /api/admin/keys/{id}: one partner API key; DELETE: revoke it, at once (a key still in rotation grace too)
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { apiKeyAnswer, keyIdParams } from "@/lib/domains/partners/schemas";
import { getKey, revokeKey } from "@/lib/domains/partners/service";

export const GET = route({
  auth: "admin",
  summary: "Get a partner API key",
  description:
    "The key's settings and state, never the key or its hash; 404 for an unknown id. Admin session or admin user token.",
  params: keyIdParams,
  response: apiKeyAnswer,
  cache: cachePolicy.none,
  handler: ({ params }) => getKey(params.id),
});

export const DELETE = route({
  auth: "admin",
  summary: "Revoke a partner API key",
  description:
    "Revokes the key: its next request answers 401, and so does a key a rotation replaced. Answers the revoked key; revoking again keeps the first time. 404 for an unknown id. Admin session or admin user token.",
  params: keyIdParams,
  response: apiKeyAnswer,
  handler: ({ params }) => revokeKey(params.id),
});
