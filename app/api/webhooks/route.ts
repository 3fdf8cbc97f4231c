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
  summary: "Register a webhook",
  description:
    "Registers an https URL for launch events (`token.created`): each newly indexed token is POSTed to it, signed with HMAC-SHA256 of the returned secret, which is shown only in this answer. 400 for a URL that is not https, holds credentials, or targets an address webhooks may not (private, loopback, ...); 409 past WEBHOOK_MAX_PER_PARTNER subscriptions.",
  body: createWebhookBody,
  response: createdWebhookResponse,
  status: 201,
  rateLimit: { name: "webhooks-create", limit: 30, windowSeconds: 60 },
  handler: ({ principal, body }) => createSubscription(principal, body),
});

export const GET = route({
  auth: "partner",
  summary: "List webhooks",
  description:
    "The calling partner's webhook subscriptions (never another partner's), with their status: `paused` after 24 hours of failing deliveries.",
  response: webhookListResponse,
  handler: ({ principal }) => listSubscriptions(principal),
});
