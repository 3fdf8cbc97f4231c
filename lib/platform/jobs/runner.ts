// Runs outbox rows: claims due jobs (FOR UPDATE SKIP LOCKED), executes them, records the outcome.
import { sql, type Transaction } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";
import { log } from "@/lib/core/log";
import { findJob, laneHasConcurrencyKeys, PermanentJobError, type JobLane } from "./define";
import "@/lib/domains/jobs";

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
 * Claims that may take a job with a concurrency key hold this transaction lock while they choose, so each
 * sees every earlier claim committed and two claimers never both find a key free.
 */
const KEYED_CLAIM_LOCK = "jobs-claim:keyed";

/** A key is busy while one of its jobs holds a lease; a dead runner's lease expires and frees it. */
const keyBusy = (column: "jobs.concurrency_key" | "k.concurrency_key") =>
  sql<boolean>`EXISTS (SELECT 1 FROM jobs busy WHERE busy.concurrency_key = ${sql.ref(column)} AND busy.status = 'running' AND busy.locked_until >= now())`;

/** Per free concurrency key, its first due job: the only one of the key a claim may take. */
function firstDueOfFreeKeys(trx: Transaction<DB>, lane: JobLane | undefined) {
  const q = trx
    .selectFrom("jobs as k")
    .distinctOn("k.concurrency_key")
    .select("k.id")
    .where("k.concurrency_key", "is not", null)
    .where("k.status", "in", ["pending", "dispatched", "running"])
    .where("k.run_at", "<=", sql<Date>`now()`)
    .where((eb) => eb.or([eb("k.locked_until", "is", null), eb("k.locked_until", "<", sql<Date>`now()`)]))
    .where((eb) => eb.not(keyBusy("k.concurrency_key")))
    .orderBy("k.concurrency_key")
    .orderBy("k.run_at")
    .orderBy("k.id");
  return lane === undefined ? q : q.where("k.lane", "=", lane);
}

/**
 * Claims one job by id (QStash delivery), or the next due ones of a lane (local worker) or of every lane
 * (tests). Of the due jobs sharing a free concurrency key, a batch takes only the first.
 */
async function claim(where: { id?: number; lane?: JobLane; limit: number }): Promise<ClaimedJob[]> {
  return db()
    .transaction()
    .execute(async (trx) => {
      if (where.id !== undefined) {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${KEYED_CLAIM_LOCK})) FROM jobs WHERE id = ${where.id} AND concurrency_key IS NOT NULL`.execute(trx);
      } else if (laneHasConcurrencyKeys(where.lane)) {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${KEYED_CLAIM_LOCK}))`.execute(trx);
      }
      let q = trx
        .selectFrom("jobs")
        .select(["id"])
        .where("status", "in", ["pending", "dispatched", "running"])
        .where("run_at", "<=", sql<Date>`now()`)
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", sql<Date>`now()`)]))
        .orderBy("run_at")
        .orderBy("id")
        .limit(where.limit)
        .forUpdate()
        .skipLocked();
      if (where.lane !== undefined) q = q.where("lane", "=", where.lane);
      if (where.id !== undefined) {
        q = q.where("id", "=", where.id).where((eb) => eb.or([eb("concurrency_key", "is", null), eb.not(keyBusy("jobs.concurrency_key"))]));
      } else {
        q = q.where((eb) => eb.or([eb("concurrency_key", "is", null), eb("id", "in", firstDueOfFreeKeys(trx, where.lane))]));
      }
      const ids = (await q.execute()).map((r) => r.id);
      if (!ids.length) return [];
      return trx
        .updateTable("jobs")
        .set({
          status: "running",
          attempts: sql`attempts + 1`,
          locked_until: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
          updated_at: sql`now()`,
        })
        .where("id", "in", ids)
        .returning(["id", "name", "payload", "attempts", "max_attempts"])
        .execute();
    });
}

/** Claims up to `limit` due jobs of one lane for this runner (the worker runs them concurrently). */
export function claimDueJobs(limit: number, lane: JobLane = "default"): Promise<ClaimedJob[]> {
  return claim({ lane, limit });
}

/** Keeps the lease of a long job alive; stops when the job is no longer this attempt's. */
function renewLease(job: ClaimedJob): () => void {
  const timer = setInterval(() => {
    db()
      .updateTable("jobs")
      .set({ locked_until: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where("id", "=", job.id)
      .where("attempts", "=", job.attempts)
      .where("status", "=", "running")
      .execute()
      .catch((error) => log.warn("job lease renewal failed", { jobId: job.id, error }));
  }, (LEASE_SECONDS * 1000) / 3);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Runs a claimed job and records what happened; never throws for a handler's failure. */
export async function executeJob(job: ClaimedJob, options: RunOptions = {}): Promise<JobOutcome> {
  const definition = findJob(job.name);
  const stopRenewing = renewLease(job);
  // Only the attempt that holds the row records its outcome: a runner whose lease expired and was
  // taken over must not overwrite the newer attempt's result.
  const thisAttempt = () => db().updateTable("jobs").where("id", "=", job.id).where("attempts", "=", job.attempts);
  try {
    if (!definition) throw new PermanentJobError(`no job named ${job.name}`);
    const parsed = definition.schema.safeParse(job.payload);
    if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.issues[0]?.message}`);
    const result = await definition.handle(parsed.data, { jobId: job.id, attempt: job.attempts });
    stopRenewing();
    await thisAttempt()
      .set({ status: "done", result: JSON.stringify(result ?? null), locked_until: null, last_error: null, updated_at: sql`now()` })
      .execute();
    return { id: job.id, status: "done" };
  } catch (error) {
    stopRenewing();
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    log.warn("job failed", { jobId: job.id, job: job.name, attempt: job.attempts, permanent, error: message });
    const retryInSeconds = backoffSeconds(job.attempts);
    await thisAttempt()
      .set(
        permanent
          ? { status: "failed", last_error: message, locked_until: null, updated_at: sql`now()` }
          : {
              status: options.retryVia === "queue" ? "dispatched" : "pending",
              last_error: message,
              locked_until: null,
              run_at: new Date(Date.now() + retryInSeconds * 1000),
              updated_at: sql`now()`,
            },
      )
      .execute();
    return permanent ? { id: job.id, status: "failed", error: message } : { id: job.id, status: "retry", error: message, retryInSeconds };
  }
}

/** Runs the due jobs of every lane once; returns what happened to each. Tests call this to drive jobs deterministically. */
export async function runDueJobs(limit = 10): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = [];
  for (const job of await claim({ limit })) outcomes.push(await executeJob(job));
  return outcomes;
}

/** Runs one job by id if it is due and not held by another runner (a QStash delivery). */
export async function runJobById(id: number, options: RunOptions = {}): Promise<JobOutcome | null> {
  const [job] = await claim({ id, limit: 1 });
  return job ? executeJob(job, options) : null;
}
