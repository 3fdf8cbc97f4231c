// POST /api/admin/keys/{id}/rotate: a new key for the partner; the old one works for a grace period
import { route } from "@/lib/http/route";
import { createdKeyAnswer, keyIdParams, rotateKeyBody } from "@/lib/domains/partners/schemas";
import { rotateKey } from "@/lib/domains/partners/service";

export const POST = route({
  auth: "admin",
  summary: "Rotate a partner API key",
  description:
    "Issues a new key (in this answer only) for the same partner: its deployments, webhooks and quotas stay. The replaced key keeps working for `graceSeconds` (default one day), then answers 401; a key still in grace from an earlier rotation ends now. 404 for an unknown id, 409 for a revoked key. Admin session or admin user token.",
  params: keyIdParams,
  body: rotateKeyBody,
  optionalBody: true,
  response: createdKeyAnswer,
  handler: ({ params, body }) => rotateKey(params.id, body),
});
