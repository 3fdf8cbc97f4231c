// QStash, the production deliverer: publishes outbox rows to /api/jobs/<name> (route()'s "qstash" auth verifies
// what it delivers).
import { Client } from "@upstash/qstash";
import { config } from "@/lib/core/config";
import { withDeadline } from "@/lib/core/deadline";
import { remember } from "@/lib/core/remember";

/** Whether jobs are handed to QStash (a token is configured). */
export function qstashEnabled(): boolean {
  return Boolean(config().QSTASH_TOKEN);
}

/** Where QStash delivers a job, and the URL its signature names: one function for both sides. */
export function jobUrl(name: string): string {
  const base = config().PUBLIC_BASE_URL;
  if (!base) throw new Error("PUBLIC_BASE_URL must be set for QStash to deliver jobs");
  return `${base.replace(/\/+$/, "")}/api/jobs/${name}`;
}

const holder = remember("jobs.qstash", (): { qstash?: { key: string; client: Client } } => ({}));

function client(): Client {
  const { QSTASH_URL, QSTASH_TOKEN } = config();
  const key = `${QSTASH_URL}|${QSTASH_TOKEN}`;
  if (holder.qstash?.key !== key) {
    // devMode false: QSTASH_DEV would make the SDK download and start a binary (offline machines fail).
    const created = new Client({
      baseUrl: QSTASH_URL,
      token: QSTASH_TOKEN,
      devMode: false,
      enableTelemetry: false,
      // A publish that fails stays pending and the cron sweep publishes it again: keep requests short.
      retry: { retries: 2, backoff: (n) => 100 * 2 ** n },
    });
    holder.qstash = { key, client: created };
  }
  return holder.qstash!.client;
}

/** QStash's own retries of one publish: 4 deliveries within ~33 min (12 s, 2.5 min, 30 min); the sweep takes over after. */
export const QSTASH_RETRIES = 3;

/** flowControlKey: the row's concurrency key; QStash then delivers one message of that key at a time. */
export type Publishable = {
  id: number;
  name: string;
  runAt: Date;
  deduplicationId: string;
  flowControlKey?: string | null;
};

export async function publishJob(job: Publishable): Promise<string> {
  const delay = Math.ceil((job.runAt.getTime() - Date.now()) / 1000);
  const res = await client().publishJSON({
    url: jobUrl(job.name),
    body: { id: job.id },
    deduplicationId: job.deduplicationId,
    retries: QSTASH_RETRIES,
    ...(delay > 0 ? { delay } : {}),
    ...(job.flowControlKey ? { flowControl: { key: job.flowControlKey, parallelism: 1 } } : {}),
  });
  return (res as { messageId: string }).messageId;
}

/** A QStash schedule as the operator view compares it with the expected ones. */
export type QStashSchedule = { scheduleId: string; destination: string; cron: string; isPaused: boolean };

/** The account's schedules (QStash's schedules list API), or a rejection after `timeoutMs`. */
export async function listQStashSchedules(timeoutMs: number): Promise<QStashSchedule[]> {
  const schedules = await withDeadline(
    client().schedules.list(),
    timeoutMs,
    `QStash did not answer within ${timeoutMs} ms`,
  );
  return schedules.map((s) => ({
    scheduleId: s.scheduleId,
    destination: s.destination,
    cron: s.cron,
    isPaused: Boolean(s.isPaused),
  }));
}
