// Partner webhook subscriptions (register, list, delete) and the fan-out of a newly indexed token.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import type { DB } from "@/db/types";
import { config } from "@/lib/core/config";
import { conflict, notFound } from "@/lib/core/errors";
import { enqueue } from "@/lib/platform/jobs/define";
import { toTokenObject, type TokenRow } from "@/lib/domains/tokens/serialize";
import { deliverWebhookJob } from "./jobs";
import { validateTargetUrl } from "./ssrf";

export const WEBHOOK_EVENTS = ["token.created"] as const;

export const createWebhookBody = z.object({
  url: z.string().max(2048).url(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).default(["token.created"]),
});
export const webhookParams = z.object({ id: z.string().uuid("id: not a webhook id") });

const subscriptionObject = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  status: z.enum(["active", "paused"]),
  failingSince: z.string().nullable(),
  pausedAt: z.string().nullable(),
  createdAt: z.string(),
});
export const createdWebhookResponse = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  secret: z.string().describe("Signing secret, shown only in this answer"),
});
export const webhookListResponse = z.object({ data: z.array(subscriptionObject) });

type PartnerRef = { partnerId: number };

export async function createSubscription(partner: PartnerRef, body: z.infer<typeof createWebhookBody>) {
  const url = await validateTargetUrl(body.url);
  const events = [...new Set(body.events)];
  const secret = `whsec_${randomBytes(32).toString("hex")}`;
  const id = randomUUID();
  await db().transaction().execute(async (trx) => {
    // Serialises a partner's registrations so the cap cannot be raced past.
    await trx.selectFrom("api_keys").select("id").where("id", "=", partner.partnerId).forUpdate().execute();
    const { n } = await trx
      .selectFrom("webhook_subscriptions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("partner_id", "=", partner.partnerId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= config().WEBHOOK_MAX_PER_PARTNER) throw conflict(`at most ${config().WEBHOOK_MAX_PER_PARTNER} webhooks per API key; delete one first`);
    await trx.insertInto("webhook_subscriptions").values({ id, partner_id: partner.partnerId, url, events, secret, failing_since: null, paused_at: null }).execute();
  });
  return { id, url, events, secret };
}

export async function listSubscriptions(partner: PartnerRef) {
  const rows = await db()
    .selectFrom("webhook_subscriptions")
    .select(["id", "url", "events", "status", "failing_since", "paused_at", "created_at"])
    .where("partner_id", "=", partner.partnerId)
    .orderBy("created_at")
    .orderBy("id")
    .limit(1000) // the per-partner cap keeps this far smaller
    .execute();
  return {
    data: rows.map((r) => ({
      id: r.id,
      url: r.url,
      events: r.events as (typeof WEBHOOK_EVENTS)[number][],
      status: r.status,
      failingSince: r.failing_since?.toISOString() ?? null,
      pausedAt: r.paused_at?.toISOString() ?? null,
      createdAt: r.created_at.toISOString(),
    })),
  };
}

/** Another partner's id answers 404, exactly like an unknown one. */
export async function deleteSubscription(partner: PartnerRef, id: string): Promise<undefined> {
  const gone = await db().deleteFrom("webhook_subscriptions").where("id", "=", id).where("partner_id", "=", partner.partnerId).executeTakeFirst();
  if (!gone.numDeletedRows) throw notFound("no such webhook");
  return undefined;
}

/** A row older than this was indexed before: re-upserting it is not a launch. */
const NEW_TOKEN_WINDOW_MS = 10 * 60 * 1000;

/**
 * Call in the transaction that inserted a token row (then dispatchJobs() after commit): one delivery job per
 * active token.created subscription. Idempotent per (subscription, token), so calling it on every upsert is safe.
 */
export async function enqueueTokenCreatedWebhooks(trx: Kysely<DB> | Transaction<DB>, tokenRow: TokenRow): Promise<number> {
  if (Date.now() - tokenRow.created_at.getTime() > NEW_TOKEN_WINDOW_MS) return 0;
  const subs = await trx
    .selectFrom("webhook_subscriptions")
    .select("id")
    .where("status", "=", "active")
    .where(sql<boolean>`events @> ARRAY['token.created']::text[]`)
    .orderBy("id")
    .limit(100_000)
    .execute();
  const data = toTokenObject(tokenRow) as Record<string, unknown>;
  for (const sub of subs) {
    const key = `${sub.id}:token.created:${tokenRow.chain_id}:${tokenRow.contract_address}`;
    const deliveryId = `whd_${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
    await enqueue(deliverWebhookJob, { subscriptionId: sub.id, deliveryId, event: "token.created", attempt: 1, data }, { trx, dedupeKey: `webhook:${deliveryId}:1` });
  }
  return subs.length;
}
