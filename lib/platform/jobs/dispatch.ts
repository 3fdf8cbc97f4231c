// Hands committed outbox rows to whoever runs them: the in-process worker (woken here) or QStash.
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";

const wakers = remember("jobs.wakers", () => new Set<() => void>());

/** The local worker subscribes so that a new job runs at once instead of at the next poll. */
export function onJobsEnqueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** Rows one dispatchJobs() call publishes at most; the cron sweep publishes whatever is left. */
const DISPATCH_BATCH = 25;

/**
 * Call after the transaction that enqueued jobs has committed. Wakes the local worker and, when QStash
 * is configured, publishes the pending rows. Never throws: a row it could not publish stays pending
 * and the cron sweep (/api/cron/dispatch) publishes it.
 */
export async function dispatchJobs(): Promise<void> {
  for (const wake of wakers) wake();
  if (!config().QSTASH_TOKEN) return;
  try {
    const { publishOutbox } = await import("./outbox");
    await publishOutbox({ limit: DISPATCH_BATCH });
  } catch (error) {
    log.error("job dispatch failed", { error });
  }
}
