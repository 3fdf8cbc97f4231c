// DELETE /api/webhooks/{id}: remove one of the partner's own subscriptions (another's answers 404)
import { route } from "@/lib/http/route";
import { deleteSubscription, webhookParams } from "@/lib/domains/webhooks/service";

export const DELETE = route({
  auth: "partner",
  summary: "Delete one of the calling partner's webhooks; 204",
  params: webhookParams,
  status: 204, // no body: the OpenAPI document lists the right success status
  handler: ({ principal, params }) => deleteSubscription(principal, params.id),
});
