// Partner webhook subscriptions (register, list, delete) and the fan-out of a newly indexed token, gated on its
// one recorded event (the same event GET /api/tokens/stream sends).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { type Database, db } from "@/db";
import { config } from "@/lib/core/config";
import { conflict, notFound } from "@/lib/core/errors";
import { enqueue } from "@/lib/platform/jobs/define";
import { lockPartner } from "@/lib/domains/partners/apikeys";
import { recordTokenIndexed } from "@/lib/domains/stream/service";
import { toTokenObject, type TokenRow } from "@/lib/domains/tokens/serialize";
import { deliverWebhookJob } from "./jobs";
import {
  countPartnerSubscriptions,
  deletePartnerSubscription,
  findPartnerSubscriptions,
  findTokenCreatedSubscriptionIds,
  insertSubscription,
} from "./queries";
import { validateTargetUrl } from "./ssrf";

export const WEBHOOK_EVENTS = ["token.created"] as const;

export const createWebhookBody = z.object({
  url: z
    .string()
    .max(2048)
    .url()
    .describe(
      "the https URL deliveries are POSTed to, at most 2048 characters; no credentials, no private or loopback host",
    ),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .default(["token.created"])
    .describe("the events to receive (token.created: a launch); default all"),
});
export const webhookParams = z.object({ id: z.string().uuid("id: not a webhook id") });

const subscriptionObject = z
  .object({
    id: z.string().uuid().describe("the subscription's id (DELETE /api/webhooks/{id})"),
    url: z.string().describe("where deliveries are POSTed"),
    events: z.array(z.enum(WEBHOOK_EVENTS)).describe("the events it receives"),
    status: z.enum(["active", "paused"]).describe("paused after 24 hours of failing deliveries"),
    failingSince: z.string().nullable().describe("ISO 8601: the first failed delivery since the last success"),
    pausedAt: z.string().nullable().describe("ISO 8601: when it was paused"),
    createdAt: z.string().describe("ISO 8601"),
  })
  .meta({ id: "Webhook", description: "A partner's webhook subscription" });
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
  await db()
    .transaction()
    .execute(async (trx) => {
      // Serialises a partner's registrations so the cap cannot be raced past.
      await lockPartner(trx, partner.partnerId);
      const n = await countPartnerSubscriptions(trx, partner.partnerId);
      if (n >= config().WEBHOOK_MAX_PER_PARTNER)
        throw conflict(`at most ${config().WEBHOOK_MAX_PER_PARTNER} webhooks per API key; delete one first`);
      await insertSubscription(trx, {
        id,
        partner_id: partner.partnerId,
        url,
        events,
        secret,
        failing_since: null,
        paused_at: null,
      });
    });
  return { id, url, events, secret };
}

export async function listSubscriptions(partner: PartnerRef) {
  const rows = await findPartnerSubscriptions(db(), partner.partnerId);
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
  if (!(await deletePartnerSubscription(db(), id, partner.partnerId))) throw notFound("no such webhook");
  return undefined;
}

/** A row older than this was indexed before: re-upserting it is not a launch. */
const NEW_TOKEN_WINDOW_MS = 10 * 60 * 1000;
/** A token whose block is older than this is history (a backfill, a catch-up after a long outage), not a launch. */
export const LAUNCH_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Call in the transaction that inserted a token row (then dispatchJobs() after commit). A token deployed more than
 * LAUNCH_MAX_AGE_MS ago is history, not a launch: neither recorded nor delivered. Otherwise records the token's one
 * event (recordTokenIndexed: what GET /api/tokens/stream sends too) and, only when that event is new, one delivery
 * job per active token.created subscription. Calling it on every upsert is safe: a token already recorded is no
 * new event, and deliveries are deduplicated per (subscription, token) besides.
 */
export async function enqueueTokenCreatedWebhooks(db: Database, tokenRow: TokenRow): Promise<number> {
  if (Date.now() - tokenRow.created_at.getTime() > NEW_TOKEN_WINDOW_MS) return 0;
  if (Date.now() - tokenRow.deployed_at.getTime() > LAUNCH_MAX_AGE_MS) return 0;
  if (!(await recordTokenIndexed(db, tokenRow))) return 0;
  const subs = await findTokenCreatedSubscriptionIds(db);
  const data = toTokenObject(tokenRow) as Record<string, unknown>;
  for (const sub of subs) {
    const key = `${sub.id}:token.created:${tokenRow.chain_id}:${tokenRow.contract_address}`;
    const deliveryId = `whd_${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
    await enqueue(
      deliverWebhookJob,
      { subscriptionId: sub.id, deliveryId, event: "token.created", attempt: 1, data },
      { db, dedupeKey: `webhook:${deliveryId}:1` },
    );
  }
  return subs.length;
}
