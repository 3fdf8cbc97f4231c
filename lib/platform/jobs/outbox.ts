// Publishing outbox rows to QStash, and the sweep that recovers rows a crash or QStash left behind.
import { db } from "@/db";
import { log } from "@/lib/core/log";
import { publishJob } from "./qstash";
import { findPublishableJobs, markJobDispatched, type OutboxRow } from "./queries";

/** A dispatched row untouched this long after it was due is taken to be lost by QStash (its retries are over). */
export const STALE_DISPATCH_SECONDS = 3600;

/**
 * QStash refuses delays beyond its plan's maximum (7 days on the free plan): a row due later than this
 * stays pending and a later sweep publishes it once it comes within reach.
 */
export const MAX_PUBLISH_DELAY_SECONDS = 6 * 86_400;

/**
 * `job-<id>` for a row's first publish, so a publish repeated after a crash is dropped by QStash.
 * A re-publish (new attempt, expired lease, lost message) must not be dropped, so it carries the
 * attempt and the row's last change; two sweeps reading the same row still agree on it.
 */
export function deduplicationId(row: Pick<OutboxRow, "id" | "status" | "attempts" | "updated_at">): string {
  return row.status === "pending" && row.attempts === 0
    ? `job-${row.id}`
    : `job-${row.id}-${row.attempts}-${row.updated_at.getTime()}`;
}

export type PublishReport = { published: number; failed: number };

/**
 * Publishes pending rows and marks them dispatched. With `recover` (the cron sweep) it also publishes
 * rows whose runner died (running, lease expired) and rows QStash gave up on (dispatched, stale).
 */
export async function publishOutbox(options: { limit: number; recover?: boolean }): Promise<PublishReport> {
  const rows = await findPublishableJobs(db(), {
    limit: options.limit,
    maxDelaySeconds: MAX_PUBLISH_DELAY_SECONDS,
    staleSeconds: options.recover ? STALE_DISPATCH_SECONDS : undefined,
  });
  const results = await Promise.allSettled(
    rows.map(async (row) => {
      await publishJob({
        id: row.id,
        name: row.name,
        runAt: row.run_at,
        deduplicationId: deduplicationId(row),
        flowControlKey: row.concurrency_key,
      });
      await markJobDispatched(db(), row);
    }),
  );
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failures.length)
    log.error("publishing jobs to QStash failed", { failed: failures.length, error: failures[0].reason });
  return { published: rows.length - failures.length, failed: failures.length };
}

/** The cron sweep: everything pending or recoverable, in batches, bounded per run. */
export async function sweepOutbox(maxRows = 500): Promise<PublishReport> {
  const total: PublishReport = { published: 0, failed: 0 };
  while (total.published + total.failed < maxRows) {
    const batch = await publishOutbox({ limit: 50, recover: true });
    total.published += batch.published;
    total.failed += batch.failed;
    if (batch.published + batch.failed < 50 || batch.failed) break;
  }
  return total;
}
