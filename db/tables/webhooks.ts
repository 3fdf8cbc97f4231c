// Row types of the webhooks domain's tables (its migrations in db/migrations/).
import type { Generated } from "kysely";

export interface WebhookSubscriptionsTable {
  id: string;
  partner_id: number;
  url: string;
  events: string[];
  /** Kept in clear: every delivery signs with it (it is shown to the partner once, at registration). */
  secret: string;
  status: Generated<"active" | "paused">;
  /** First failed attempt since the last success; 24 h of failures pauses the subscription. */
  failing_since: Date | null;
  paused_at: Date | null;
  created_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  subscription_id: string;
  /** The x-webhook-id header: one per (subscription, event), the same on every attempt. */
  delivery_id: string;
  event: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_code: number | null;
  error: string | null;
  created_at: Generated<Date>;
}

export interface WebhooksTables {
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
