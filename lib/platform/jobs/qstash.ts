// QStash, the production deliverer: publishes outbox rows to /api/jobs/<name> and verifies what it delivers.
import { Client, Receiver } from "@upstash/qstash";
import { decodeJwt } from "jose";
import { config } from "@/lib/core/config";
import { unauthorized } from "@/lib/core/errors";
import { readCappedText } from "@/lib/http/route";

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

const holder = globalThis as unknown as { __qstash?: { key: string; client: Client } };

function client(): Client {
  const { QSTASH_URL, QSTASH_TOKEN } = config();
  const key = `${QSTASH_URL}|${QSTASH_TOKEN}`;
  if (holder.__qstash?.key !== key) {
    // devMode false: QSTASH_DEV would make the SDK download and start a binary (offline machines fail).
    const created = new Client({
      baseUrl: QSTASH_URL,
      token: QSTASH_TOKEN,
      devMode: false,
      enableTelemetry: false,
      // A publish that fails stays pending and the cron sweep publishes it again: keep requests short.
      retry: { retries: 2, backoff: (n) => 100 * 2 ** n },
    });
    holder.__qstash = { key, client: created };
  }
  return holder.__qstash!.client;
}

/** QStash's own retries of one publish: 4 deliveries within ~33 min (12 s, 2.5 min, 30 min); the sweep takes over after. */
export const QSTASH_RETRIES = 3;

/** flowControlKey: the row's concurrency key; QStash then delivers one message of that key at a time. */
export type Publishable = { id: number; name: string; runAt: Date; deduplicationId: string; flowControlKey?: string | null };

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

export const MAX_DELIVERY_BYTES = 64 * 1024;


/**
 * Checks `Upstash-Signature` (current key, then next) over the raw body and the full public URL, and
 * returns the body. Fails closed: no keys, no PUBLIC_BASE_URL, no header, no exp or any mismatch is a 401.
 */
export async function verifiedDeliveryBody(request: Request): Promise<string> {
  const { QSTASH_CURRENT_SIGNING_KEY: current, QSTASH_NEXT_SIGNING_KEY: next, PUBLIC_BASE_URL: base } = config();
  if (!current && !next) throw unauthorized("job deliveries are not accepted: QStash signing keys are not configured");
  if (!base) throw unauthorized("job deliveries are not accepted: PUBLIC_BASE_URL is not configured");
  const signature = request.headers.get("upstash-signature");
  if (!signature) throw unauthorized("missing Upstash-Signature header");
  const body = await readCappedText(request, MAX_DELIVERY_BYTES);
  const { pathname, search } = new URL(request.url);
  const url = `${base.replace(/\/+$/, "")}${pathname}${search}`;
  const receiver = new Receiver({ currentSigningKey: current ?? next, nextSigningKey: next ?? current, devMode: false });
  const valid = await receiver.verify({ signature, body, url, clockTolerance: 5 }).catch(() => false);
  if (!valid) throw unauthorized("invalid Upstash-Signature");
  // The Receiver checks exp only when present, so a signature without one would replay forever; QStash's have one.
  if (typeof decodeJwt(signature).exp !== "number") throw unauthorized("Upstash-Signature without an expiry");
  return body;
}
