// DELETE /api/webhooks/{id}: remove one of the partner's own subscriptions (another's answers 404)
import { route } from "@/lib/http/route";
import { deleteSubscription, webhookParams } from "@/lib/domains/webhooks/service";

export const DELETE = route({
  auth: "partner",
  summary: "Delete a webhook",
  description:
    "Deletes one of the calling partner's webhook subscriptions; 204 without content. Another partner's or an unknown id answers 404.",
  params: webhookParams,
  parameterDescriptions: { id: "the subscription's id, as POST /api/webhooks answered it" },
  status: 204, // no body: the OpenAPI document lists the right success status
  handler: ({ principal, params }) => deleteSubscription(principal, params.id),
});
