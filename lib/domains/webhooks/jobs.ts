// The webhook delivery job: one attempt per job run, logged; a failure schedules the next attempt itself
// (backoff spanning ~21 h), and a subscription failing for 24 h is paused.
import { z } from "zod";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { defineJob, enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { log } from "@/lib/core/log";
import { countWebhookDelivery } from "@/lib/core/telemetry";
import { postSigned } from "./deliver";
import {
  clearSubscriptionFailing,
  findSubscription,
  insertDeliveryAttempt,
  isAttemptLogged,
  markSubscriptionFailing,
  pauseSubscription,
} from "./queries";

/** Seconds before attempt n+1 after failed attempt n (n = 1…7). */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200, 21_600, 43_200];
export const PAUSE_AFTER_HOURS = 24;

const payloadSchema = z.object({
  subscriptionId: z.string().uuid(),
  deliveryId: z.string().min(1).max(80),
  event: z.literal("token.created"),
  attempt: z.number().int().min(1).max(8),
  data: z.record(z.string(), z.unknown()),
});
export type DeliveryPayload = z.infer<typeof payloadSchema>;

export const deliverWebhookJob = defineJob({
  name: "webhook-deliver",
  schema: payloadSchema,
  // Receivers may never answer: their attempts wait in their own worker slots, one at a time per subscription.
  lane: "webhooks",
  concurrencyKey: (p) => `webhook-${p.subscriptionId}`,
  maxAttempts: 3, // only for crashes of this handler; delivery failures are rescheduled as new jobs below
  async handle(p) {
    const sub = await findSubscription(db(), p.subscriptionId);
    if (!sub) return { skipped: "deleted" };
    if (sub.status !== "active") return { skipped: "paused" };
    if (await isAttemptLogged(db(), p.deliveryId, p.attempt)) return { skipped: "already attempted" }; // at-least-once: this attempt already ran
    const body = JSON.stringify({ id: p.deliveryId, type: p.event, data: p.data });
    const result = await postSigned(sub.url, sub.secret, p.deliveryId, body);
    countWebhookDelivery(result.ok);
    const outcome = await recordAttempt(p, result);
    if (outcome.retryScheduled) await dispatchJobs();
    return { ...result, ...outcome };
  },
});

async function recordAttempt(
  p: DeliveryPayload,
  result: { ok: boolean; responseCode: number | null; error: string | null },
) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const inserted = await insertDeliveryAttempt(trx, {
        subscription_id: p.subscriptionId,
        delivery_id: p.deliveryId,
        event: p.event,
        attempt: p.attempt,
        status: result.ok ? "succeeded" : "failed",
        response_code: result.responseCode,
        error: result.error?.slice(0, 500) ?? null,
      });
      if (!inserted) return { paused: false, retryScheduled: false };
      if (result.ok) {
        await clearSubscriptionFailing(trx, p.subscriptionId);
        return { paused: false, retryScheduled: false };
      }
      const sub = await markSubscriptionFailing(trx, p.subscriptionId, PAUSE_AFTER_HOURS);
      if (sub?.expired) {
        await pauseSubscription(trx, p.subscriptionId);
        log.warn("webhook subscription paused after 24 h of failures", { subscriptionId: p.subscriptionId });
        return { paused: true, retryScheduled: false };
      }
      if (p.attempt >= config().WEBHOOK_MAX_ATTEMPTS) return { paused: false, retryScheduled: false };
      await enqueue(
        deliverWebhookJob,
        { ...p, attempt: p.attempt + 1 },
        {
          db: trx,
          delaySeconds: RETRY_DELAYS_SECONDS[p.attempt - 1],
          dedupeKey: `webhook:${p.deliveryId}:${p.attempt + 1}`,
        },
      );
      return { paused: false, retryScheduled: true };
    });
}

export const webhooksJobs: JobSet = { jobs: [deliverWebhookJob] };
