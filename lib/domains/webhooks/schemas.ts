// What a launch webhook delivers (lib/domains/webhooks/jobs.ts writes it, deliver.ts signs it), for the OpenAPI
// document's `webhooks`: the receiver's side of the contract, as the request schemas are the service's side.
import { z } from "zod";
import { tokenObject } from "@/lib/domains/tokens/responses";

/** The headers of every delivery attempt (deliver.ts), in the order they are checked. */
export const WEBHOOK_HEADERS = {
  id: "x-webhook-id",
  timestamp: "x-webhook-timestamp",
  signature: "x-webhook-signature",
} as const;

export const SIGNATURE_SCHEME =
  "`x-webhook-signature: v1=<hex>`, the hex of HMAC-SHA256 keyed with the subscription's secret (`whsec_…`, shown once by POST /api/webhooks) over the text `<x-webhook-timestamp>.<raw body>`. Check it over the raw bytes before parsing JSON, compare in constant time, and refuse a timestamp more than a few minutes old.";

export const tokenCreatedDelivery = z
  .object({
    id: z
      .string()
      .regex(/^whd_[0-9a-f]{32}$/)
      .meta({
        description: "the delivery's id, the same on every attempt (and in x-webhook-id): deduplicate on it",
        examples: [`whd_${"0f".repeat(16)}`],
      }),
    type: z.literal("token.created").describe("the event"),
    data: tokenObject.describe("the token, as GET /api/tokens lists it (without `related`)"),
  })
  .meta({
    id: "TokenCreatedWebhook",
    description: "The body of a token.created delivery: one newly indexed token deployed within the last hour",
  });
