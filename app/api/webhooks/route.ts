// POST /api/webhooks: register an https URL for launch events (secret shown once); GET: the partner's own subscriptions
import { route } from "@/lib/http/route";
import {
  createdWebhookResponse,
  createSubscription,
  createWebhookBody,
  listSubscriptions,
  webhookListResponse,
} from "@/lib/domains/webhooks/service";

export const POST = route({
  auth: "partner",
  summary: "Register a webhook for token.created; the signing secret is returned only here",
  body: createWebhookBody,
  response: createdWebhookResponse,
  status: 201,
  rateLimit: { name: "webhooks-create", limit: 30, windowSeconds: 60 },
  handler: ({ principal, body }) => createSubscription(principal, body),
});

export const GET = route({
  auth: "partner",
  summary: "The calling partner's webhook subscriptions (at most WEBHOOK_MAX_PER_PARTNER)",
  response: webhookListResponse,
  handler: ({ principal }) => listSubscriptions(principal),
});
