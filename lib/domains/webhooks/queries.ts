// Queries on webhook_subscriptions (partners' registered receivers) and webhook_deliveries (the log of each attempt).
import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "@/db";
import type { WebhookDeliveriesTable, WebhookSubscriptionsTable } from "@/db/tables/webhooks";

export type WebhookSubscriptionRow = Selectable<WebhookSubscriptionsTable>;

export async function countPartnerSubscriptions(db: Database, partnerId: number): Promise<number> {
  const { n } = await db
    .selectFrom("webhook_subscriptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("partner_id", "=", partnerId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertSubscription(db: Database, values: Insertable<WebhookSubscriptionsTable>): Promise<void> {
  await db.insertInto("webhook_subscriptions").values(values).execute();
}

/** The partner's subscriptions, oldest first, without their secrets. */
export function findPartnerSubscriptions(db: Database, partnerId: number) {
  return db
    .selectFrom("webhook_subscriptions")
    .select(["id", "url", "events", "status", "failing_since", "paused_at", "created_at"])
    .where("partner_id", "=", partnerId)
    .orderBy("created_at")
    .orderBy("id")
    .limit(1000) // the per-partner cap keeps this far smaller
    .execute();
}

/** Deletes the partner's subscription; false when the partner has no such subscription. */
export async function deletePartnerSubscription(db: Database, id: string, partnerId: number): Promise<boolean> {
  const gone = await db
    .deleteFrom("webhook_subscriptions")
    .where("id", "=", id)
    .where("partner_id", "=", partnerId)
    .executeTakeFirst();
  return Boolean(gone.numDeletedRows);
}

/** Ids of the active subscriptions to token.created. */
export function findTokenCreatedSubscriptionIds(db: Database): Promise<Array<{ id: string }>> {
  return db
    .selectFrom("webhook_subscriptions")
    .select("id")
    .where("status", "=", "active")
    .where(sql<boolean>`events @> ARRAY['token.created']::text[]`)
    .orderBy("id")
    .limit(100_000)
    .execute();
}

export function findSubscription(db: Database, id: string): Promise<WebhookSubscriptionRow | undefined> {
  return db.selectFrom("webhook_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Whether this attempt of the delivery is logged already. */
export async function isAttemptLogged(db: Database, deliveryId: string, attempt: number): Promise<boolean> {
  const logged = await db
    .selectFrom("webhook_deliveries")
    .select("status")
    .where("delivery_id", "=", deliveryId)
    .where("attempt", "=", attempt)
    .executeTakeFirst();
  return Boolean(logged);
}

/** Logs an attempt; false when this (delivery, attempt) was logged already. */
export async function insertDeliveryAttempt(
  db: Database,
  values: Insertable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const inserted = await db
    .insertInto("webhook_deliveries")
    .values(values)
    .onConflict((oc) => oc.columns(["delivery_id", "attempt"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(inserted);
}

export async function clearSubscriptionFailing(db: Database, id: string): Promise<void> {
  await db.updateTable("webhook_subscriptions").set({ failing_since: null }).where("id", "=", id).execute();
}

/**
 * Marks the subscription failing since now unless it was already; `expired` when it has been failing for
 * `pauseAfterHours` or more. Undefined when the subscription is gone.
 */
export function markSubscriptionFailing(db: Database, id: string, pauseAfterHours: number) {
  return db
    .updateTable("webhook_subscriptions")
    .set({ failing_since: sql`coalesce(failing_since, now())` })
    .where("id", "=", id)
    .returning([
      "failing_since",
      sql<boolean>`failing_since <= now() - make_interval(hours => ${pauseAfterHours})`.as("expired"),
    ])
    .executeTakeFirst();
}

export async function pauseSubscription(db: Database, id: string): Promise<void> {
  await db
    .updateTable("webhook_subscriptions")
    .set({ status: "paused", paused_at: sql`now()` })
    .where("id", "=", id)
    .execute();
}
