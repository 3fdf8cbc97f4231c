// POST /api/admin/keys: create a partner API key (shown once); GET: list the keys, a page at a time
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { createdKeyAnswer, createKeyBody, keyListAnswer, listKeysQuery } from "@/lib/domains/partners/schemas";
import { createKey, listKeys } from "@/lib/domains/partners/service";

export const POST = route({
  auth: "admin",
  summary: "Create a partner API key",
  description:
    "Creates a key with a name, an optional owner, scopes (default: all), an optional expiry and optional limits of its own. The key is in this answer only; the service keeps its peppered SHA-256 and a 12-character prefix. Admin session or admin user token.",
  body: createKeyBody,
  response: createdKeyAnswer,
  status: 201,
  handler: ({ body }) => createKey(body),
});

export const GET = route({
  auth: "admin",
  summary: "List partner API keys",
  description:
    "Every key in id order, revoked and expired ones included, never the key or its hash. `previousPrefix` names a key a rotation replaced while it still works. Admin session or admin user token.",
  query: listKeysQuery,
  response: keyListAnswer,
  cache: cachePolicy.none,
  handler: ({ query }) => listKeys(query),
});
