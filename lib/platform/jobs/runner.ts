// Runs outbox rows: claims due jobs (FOR UPDATE SKIP LOCKED), executes them, records the outcome.
import { db } from "@/db";
import { log } from "@/lib/core/log";
import { traceJob } from "@/lib/core/telemetry";
import { PermanentJobError, type JobLane } from "./define";
import {
  lockClaimableJobIds,
  lockKeyedClaims,
  lockKeyedClaimsFor,
  markJobsRunning,
  recordJobDone,
  recordJobFailed,
  recordJobRetry,
  renewJobLease,
} from "./queries";
import { laneHasConcurrencyKeys, type JobRegistry } from "./registry";

/** A claim holds a job this long; a runner still working renews it, so only a dead runner's lease expires. */
export const LEASE_SECONDS = 120;

/** 2, 4, 8 … seconds after the nth failed attempt, capped at 10 minutes. */
export function backoffSeconds(attempt: number): number {
  return Math.min(600, 2 ** Math.max(1, attempt));
}

export type JobOutcome = { id: number; status: "done" | "failed" | "retry"; error?: string; retryInSeconds?: number };

export type ClaimedJob = { id: number; name: string; payload: unknown; attempts: number; max_attempts: number };

export type RunOptions = {
  /**
   * Who retries after a transient failure. "worker" (default): the row goes back to `pending` with a
   * backoff and any runner picks it up. "queue": the deliverer (QStash) redelivers it, so the row stays
   * `dispatched` and is not published again.
   */
  retryVia?: "worker" | "queue";
};

/**
 * Claims one job by id (QStash delivery), or the next due ones of a lane (local worker) or of every lane
 * (tests). Of the due jobs sharing a free concurrency key, a batch takes only the first.
 */
async function claim(
  registry: JobRegistry,
  where: { id?: number; lane?: JobLane; limit: number },
): Promise<ClaimedJob[]> {
  return db()
    .transaction()
    .execute(async (trx) => {
      if (where.id !== undefined) await lockKeyedClaimsFor(trx, where.id);
      else if (laneHasConcurrencyKeys(registry, where.lane)) await lockKeyedClaims(trx);
      const ids = await lockClaimableJobIds(trx, where);
      if (!ids.length) return [];
      return markJobsRunning(trx, ids, LEASE_SECONDS);
    });
}

/** Claims up to `limit` due jobs of one lane for this runner (the worker runs them concurrently). */
export function claimDueJobs(registry: JobRegistry, limit: number, lane: JobLane = "default"): Promise<ClaimedJob[]> {
  return claim(registry, { lane, limit });
}

/** Keeps the lease of a long job alive; stops when the job is no longer this attempt's. */
function renewLease(job: ClaimedJob): () => void {
  const timer = setInterval(
    () => {
      renewJobLease(db(), job, LEASE_SECONDS).catch((error) =>
        log.warn("job lease renewal failed", { jobId: job.id, error }),
      );
    },
    (LEASE_SECONDS * 1000) / 3,
  );
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Runs a claimed job and records what happened (and traces it); never throws for a handler's failure. */
export function executeJob(registry: JobRegistry, job: ClaimedJob, options: RunOptions = {}): Promise<JobOutcome> {
  return traceJob(job.name, job.attempts, () => runJob(registry, job, options));
}

async function runJob(registry: JobRegistry, job: ClaimedJob, options: RunOptions): Promise<JobOutcome> {
  const definition = registry.jobs.get(job.name);
  const stopRenewing = renewLease(job);
  // Only the attempt that holds the row records its outcome (the record functions match the attempt): a
  // runner whose lease expired and was taken over must not overwrite the newer attempt's result.
  try {
    if (!definition) throw new PermanentJobError(`no job named ${job.name}`);
    const parsed = definition.schema.safeParse(job.payload);
    if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.issues[0]?.message}`);
    const result = await definition.handle(parsed.data, { jobId: job.id, attempt: job.attempts });
    stopRenewing();
    await recordJobDone(db(), job, JSON.stringify(result ?? null));
    return { id: job.id, status: "done" };
  } catch (error) {
    stopRenewing();
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    log.warn("job failed", { jobId: job.id, job: job.name, attempt: job.attempts, permanent, error: message });
    const retryInSeconds = backoffSeconds(job.attempts);
    if (permanent) await recordJobFailed(db(), job, message);
    else
      await recordJobRetry(
        db(),
        job,
        message,
        options.retryVia === "queue" ? "dispatched" : "pending",
        new Date(Date.now() + retryInSeconds * 1000),
      );
    return permanent
      ? { id: job.id, status: "failed", error: message }
      : { id: job.id, status: "retry", error: message, retryInSeconds };
  }
}

/** Runs the due jobs of every lane once; returns what happened to each. Tests call this to drive jobs deterministically. */
export async function runDueJobs(registry: JobRegistry, limit = 10): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = [];
  for (const job of await claim(registry, { limit })) outcomes.push(await executeJob(registry, job));
  return outcomes;
}

/** Runs one job by id if it is due and not held by another runner (a QStash delivery). */
export async function runJobById(
  registry: JobRegistry,
  id: number,
  options: RunOptions = {},
): Promise<JobOutcome | null> {
  const [job] = await claim(registry, { id, limit: 1 });
  return job ? executeJob(registry, job, options) : null;
}
