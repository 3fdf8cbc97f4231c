// One QStash delivery of an outbox row: run it once, and tell QStash whether to deliver it again.
import { z } from "zod";
import { db } from "@/db";
import { badRequest, notFound, providerUnavailable } from "@/lib/core/errors";
import { findJobStatus } from "./queries";
import type { JobRegistry } from "./registry";
import { runJobById } from "./runner";

/** The body QStash delivers (the route reads it raw: the signature covers its bytes). */
export const deliveryBody = z.object({ id: z.number().int().positive().describe("the outbox row to run") });

export const deliveryResult = z.object({
  id: z.number().int().describe("the outbox row"),
  status: z.enum(["done", "failed"]).describe("settled: QStash stops delivering"),
  ran: z.boolean().describe("false when an earlier delivery had already settled it"),
});
export type DeliveryResult = z.infer<typeof deliveryResult>;

/** 503 + Retry-After: QStash retries any non-2xx after its own backoff. */
const retryLater = (message: string, seconds: number) => providerUnavailable(message, Math.max(1, Math.ceil(seconds)));

function parseDelivery(rawBody: string): number {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw badRequest("the delivery body is not valid JSON");
  }
  const parsed = deliveryBody.safeParse(json);
  if (!parsed.success) throw badRequest("the delivery body must be { id: <job id> }");
  return parsed.data.id;
}

/**
 * Done or permanently failed: 2xx (QStash stops). Transient failure, not yet due, held by another runner,
 * or another job of its concurrency key running: 503 (QStash delivers again). Unknown job name or row: 404.
 */
export async function deliverJob(registry: JobRegistry, name: string, rawBody: string): Promise<DeliveryResult> {
  if (!registry.jobs.has(name)) throw notFound(`no job named ${name}`);
  const id = parseDelivery(rawBody);
  const row = await findJobStatus(db(), id);
  if (!row || row.name !== name) throw notFound(`no ${name} job ${id}`);
  if (row.status === "done" || row.status === "failed") return { id, status: row.status, ran: false };
  const outcome = await runJobById(registry, id, { retryVia: "queue" });
  if (!outcome) {
    const now = await findJobStatus(db(), id);
    if (!now) throw new Error(`job ${id} vanished while it was being delivered`);
    if (now.status === "done" || now.status === "failed") return { id, status: now.status, ran: false };
    throw retryLater(`job ${id} is not due yet, is running elsewhere, or waits for a job with its concurrency key`, 30);
  }
  if (outcome.status === "retry")
    throw retryLater(
      `job ${id} failed and will be retried (the reason is in the job row)`,
      outcome.retryInSeconds ?? 30,
    );
  return { id, status: outcome.status, ran: true };
}
