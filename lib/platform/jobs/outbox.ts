// Publishing outbox rows to QStash, and the sweep that recovers rows a crash or QStash left behind.
import { sql } from "kysely";
import { db } from "@/db";
import type { JobStatus } from "@/db/tables/core";
import { log } from "@/lib/core/log";
import { publishJob } from "./qstash";

/** A dispatched row untouched this long after it was due is taken to be lost by QStash (its retries are over). */
export const STALE_DISPATCH_SECONDS = 3600;

/**
 * QStash refuses delays beyond its plan's maximum (7 days on the free plan): a row due later than this
 * stays pending and a later sweep publishes it once it comes within reach.
 */
export const MAX_PUBLISH_DELAY_SECONDS = 6 * 86_400;

type OutboxRow = { id: number; name: string; status: JobStatus; attempts: number; run_at: Date; updated_at: Date; concurrency_key: string | null };

/**
 * `job-<id>` for a row's first publish, so a publish repeated after a crash is dropped by QStash.
 * A re-publish (new attempt, expired lease, lost message) must not be dropped, so it carries the
 * attempt and the row's last change; two sweeps reading the same row still agree on it.
 */
export function deduplicationId(row: Pick<OutboxRow, "id" | "status" | "attempts" | "updated_at">): string {
  return row.status === "pending" && row.attempts === 0 ? `job-${row.id}` : `job-${row.id}-${row.attempts}-${row.updated_at.getTime()}`;
}

/** Marks a published row dispatched unless a runner changed it meanwhile (e.g. QStash already delivered it). */
async function markDispatched(row: OutboxRow): Promise<void> {
  let q = db()
    .updateTable("jobs")
    .set({ status: "dispatched", locked_until: null, updated_at: sql`now()` })
    .where("id", "=", row.id)
    .where("status", "=", row.status)
    .where("attempts", "=", row.attempts);
  if (row.status === "running") q = q.where("locked_until", "<", sql<Date>`now()`);
  await q.execute();
}

export type PublishReport = { published: number; failed: number };

/**
 * Publishes pending rows and marks them dispatched. With `recover` (the cron sweep) it also publishes
 * rows whose runner died (running, lease expired) and rows QStash gave up on (dispatched, stale).
 */
export async function publishOutbox(options: { limit: number; recover?: boolean }): Promise<PublishReport> {
  const rows = await db()
    .selectFrom("jobs")
    .select(["id", "name", "status", "attempts", "run_at", "updated_at", "concurrency_key"])
    .where("run_at", "<", sql<Date>`now() + make_interval(secs => ${MAX_PUBLISH_DELAY_SECONDS})`)
    .where((eb) => {
      const pending = eb("status", "=", "pending");
      if (!options.recover) return pending;
      const stale = sql<Date>`now() - make_interval(secs => ${STALE_DISPATCH_SECONDS})`;
      return eb.or([
        pending,
        eb.and([eb("status", "=", "running"), eb("locked_until", "<", sql<Date>`now()`)]),
        eb.and([eb("status", "=", "dispatched"), eb("run_at", "<", stale), eb("updated_at", "<", stale)]),
      ]);
    })
    .orderBy("run_at")
    .orderBy("id")
    .limit(options.limit)
    .execute();
  const results = await Promise.allSettled(
    rows.map(async (row) => {
      await publishJob({ id: row.id, name: row.name, runAt: row.run_at, deduplicationId: deduplicationId(row), flowControlKey: row.concurrency_key });
      await markDispatched(row);
    }),
  );
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failures.length) log.error("publishing jobs to QStash failed", { failed: failures.length, error: failures[0].reason });
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
