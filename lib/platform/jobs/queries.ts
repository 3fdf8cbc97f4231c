// Statements on the jobs table (the outbox): enqueue, the claim (FOR UPDATE SKIP LOCKED under advisory
// locks), leases and outcomes, QStash publishing, and the retention prune.
import { sql, type Insertable, type Transaction } from "kysely";
import type { Database } from "@/db";
import type { JobsTable, JobStatus } from "@/db/tables/core";
import type { DB } from "@/db/types";
import type { JobLane } from "./define";

// --- Enqueue ---------------------------------------------------------------------------------------

/** Inserts the row; undefined when its dedupe key is taken already. */
export function insertJob(db: Database, row: Insertable<JobsTable>): Promise<{ id: number } | undefined> {
  return db
    .insertInto("jobs")
    .values(row)
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
}

export function findJobIdByDedupeKey(db: Database, dedupeKey: string): Promise<{ id: number }> {
  return db.selectFrom("jobs").select("id").where("dedupe_key", "=", dedupeKey).executeTakeFirstOrThrow();
}

export function findJobStatus(db: Database, id: number): Promise<{ name: string; status: JobStatus } | undefined> {
  return db.selectFrom("jobs").select(["name", "status"]).where("id", "=", id).executeTakeFirst();
}

// --- Claims ----------------------------------------------------------------------------------------

/**
 * Claims that may take a job with a concurrency key hold this transaction lock while they choose, so each
 * sees every earlier claim committed and two claimers never both find a key free.
 */
const KEYED_CLAIM_LOCK = "jobs-claim:keyed";

/** Takes the keyed-claim lock if job `id` has a concurrency key. */
export async function lockKeyedClaimsFor(trx: Transaction<DB>, id: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${KEYED_CLAIM_LOCK})) FROM jobs WHERE id = ${id} AND concurrency_key IS NOT NULL`.execute(
    trx,
  );
}

export async function lockKeyedClaims(trx: Transaction<DB>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${KEYED_CLAIM_LOCK}))`.execute(trx);
}

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
 * Ids of due jobs no runner holds, locked FOR UPDATE SKIP LOCKED: job `id` alone (unless its key is
 * busy), or the first `limit` of a lane (or of every lane), of which only the first due job per free
 * concurrency key.
 */
export async function lockClaimableJobIds(
  trx: Transaction<DB>,
  where: { id?: number; lane?: JobLane; limit: number },
): Promise<number[]> {
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
    q = q
      .where("id", "=", where.id)
      .where((eb) => eb.or([eb("concurrency_key", "is", null), eb.not(keyBusy("jobs.concurrency_key"))]));
  } else {
    q = q.where((eb) =>
      eb.or([eb("concurrency_key", "is", null), eb("id", "in", firstDueOfFreeKeys(trx, where.lane))]),
    );
  }
  return (await q.execute()).map((r) => r.id);
}

/** Marks the jobs running under a lease of `leaseSeconds`, counting the attempt; returns what a runner needs. */
export function markJobsRunning(trx: Transaction<DB>, ids: number[], leaseSeconds: number) {
  return trx
    .updateTable("jobs")
    .set({
      status: "running",
      attempts: sql`attempts + 1`,
      locked_until: sql`now() + make_interval(secs => ${leaseSeconds})`,
      updated_at: sql`now()`,
    })
    .where("id", "in", ids)
    .returning(["id", "name", "payload", "attempts", "max_attempts"])
    .execute();
}

// --- Leases and outcomes: only the attempt that holds the row changes it ------------------------------

type Attempt = { id: number; attempts: number };

const thisAttempt = (db: Database, job: Attempt) =>
  db.updateTable("jobs").where("id", "=", job.id).where("attempts", "=", job.attempts);

export async function renewJobLease(db: Database, job: Attempt, leaseSeconds: number): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ locked_until: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where("id", "=", job.id)
    .where("attempts", "=", job.attempts)
    .where("status", "=", "running")
    .execute();
}

export async function recordJobDone(db: Database, job: Attempt, result: string): Promise<void> {
  await thisAttempt(db, job)
    .set({ status: "done", result, locked_until: null, last_error: null, updated_at: sql`now()` })
    .execute();
}

export async function recordJobFailed(db: Database, job: Attempt, error: string): Promise<void> {
  await thisAttempt(db, job)
    .set({ status: "failed", last_error: error, locked_until: null, updated_at: sql`now()` })
    .execute();
}

/** A failed attempt to run again at `runAt`: by any runner (`pending`) or by the queue's redelivery (`dispatched`). */
export async function recordJobRetry(
  db: Database,
  job: Attempt,
  error: string,
  status: "pending" | "dispatched",
  runAt: Date,
): Promise<void> {
  await thisAttempt(db, job)
    .set({ status, last_error: error, locked_until: null, run_at: runAt, updated_at: sql`now()` })
    .execute();
}

// --- QStash publishing ---------------------------------------------------------------------------------

export type OutboxRow = {
  id: number;
  name: string;
  status: JobStatus;
  attempts: number;
  run_at: Date;
  updated_at: Date;
  concurrency_key: string | null;
};

/**
 * Rows to publish, due within `maxDelaySeconds`: pending ones; with `staleSeconds` also those whose
 * runner died (running, lease expired) and those dispatched and untouched that long after they were due.
 */
export function findPublishableJobs(
  db: Database,
  options: { limit: number; maxDelaySeconds: number; staleSeconds?: number },
): Promise<OutboxRow[]> {
  const { staleSeconds } = options;
  return db
    .selectFrom("jobs")
    .select(["id", "name", "status", "attempts", "run_at", "updated_at", "concurrency_key"])
    .where("run_at", "<", sql<Date>`now() + make_interval(secs => ${options.maxDelaySeconds})`)
    .where((eb) => {
      const pending = eb("status", "=", "pending");
      if (staleSeconds === undefined) return pending;
      const stale = sql<Date>`now() - make_interval(secs => ${staleSeconds})`;
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
}

/** Marks a published row dispatched unless a runner changed it meanwhile (e.g. QStash already delivered it). */
export async function markJobDispatched(db: Database, row: OutboxRow): Promise<void> {
  let q = db
    .updateTable("jobs")
    .set({ status: "dispatched", locked_until: null, updated_at: sql`now()` })
    .where("id", "=", row.id)
    .where("status", "=", row.status)
    .where("attempts", "=", row.attempts);
  if (row.status === "running") q = q.where("locked_until", "<", sql<Date>`now()`);
  await q.execute();
}

/** Deletes job `id` if no runner has claimed it and it was not marked handed to QStash; whether it did. */
export async function deletePendingJob(db: Database, id: number): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom("jobs")
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return numDeletedRows > 0n;
}

// --- Retention -----------------------------------------------------------------------------------------

/**
 * Deletes up to `limit` settled rows last changed before `cutoff`: done ones, and failed ones an operator has seen
 * (seen_at); returns how many.
 */
export async function deleteSettledJobs(db: Database, cutoff: Date, limit: number): Promise<bigint> {
  const { numDeletedRows } = await db
    .deleteFrom("jobs")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("jobs")
        .select("id")
        .where("status", "in", ["done", "failed"])
        .where("updated_at", "<", cutoff)
        .where((w) => w.or([w("status", "=", "done"), w("seen_at", "is not", null)]))
        .limit(limit),
    )
    .executeTakeFirst();
  return numDeletedRows;
}

// --- What operators watch ------------------------------------------------------------------------------

/** Per job name, when its last successful run settled (null: none kept), one index probe each. */
export async function findLastDoneAt(db: Database, names: readonly string[]): Promise<Map<string, Date | null>> {
  if (!names.length) return new Map();
  const rows = await sql<{ name: string; done_at: Date | null }>`
    SELECT n.name, (SELECT j.updated_at FROM jobs j WHERE j.name = n.name AND j.status = 'done'
                    ORDER BY j.updated_at DESC LIMIT 1) AS done_at
    FROM unnest(${sql.val([...names])}::text[]) AS n(name)`.execute(db);
  return new Map(rows.rows.map((r) => [r.name, r.done_at === null ? null : new Date(r.done_at)]));
}

/** Which of these dedupe keys name a row (a schedule's buckets that were enqueued). */
export async function findExistingDedupeKeys(db: Database, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db
    .selectFrom("jobs")
    .select("dedupe_key")
    .where("dedupe_key", "in", [...keys])
    .execute();
  return new Set(rows.map((r) => r.dedupe_key!));
}

/** When the oldest row kept was created: how far back the table's history reaches (null: empty). */
export async function findOldestJobCreatedAt(db: Database): Promise<Date | null> {
  const row = await db.selectFrom("jobs").select("created_at").orderBy("id").limit(1).executeTakeFirst();
  return row?.created_at ?? null;
}

/** Failed rows no operator has seen that failed since `since`, counted up to `cap`. */
export async function countUnseenFailedJobs(db: Database, since: Date, cap: number): Promise<number> {
  const { count } = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("jobs")
        .select("id")
        .where("status", "=", "failed")
        .where("updated_at", ">=", since)
        .where("seen_at", "is", null)
        .limit(cap)
        .as("unseen"),
    )
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export type FailedJobRow = {
  id: number;
  name: string;
  attempts: number;
  last_error: string | null;
  updated_at: Date;
  seen_at: Date | null;
};

/** Failed rows, newest first: those that failed since `since`, and older ones nobody has seen. */
export function findFailedJobs(db: Database, since: Date, limit: number): Promise<FailedJobRow[]> {
  return db
    .selectFrom("jobs")
    .select(["id", "name", "attempts", "last_error", "updated_at", "seen_at"])
    .where("status", "=", "failed")
    .where((eb) => eb.or([eb("updated_at", ">=", since), eb("seen_at", "is", null)]))
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** Marks failed rows seen (the first time only); their updated_at, which the prune reads, stays. */
export async function markFailedJobsSeen(db: Database, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable("jobs")
    .set({ seen_at: sql`now()` })
    .where("id", "in", [...ids])
    .where("status", "=", "failed")
    .where("seen_at", "is", null)
    .execute();
}

/** A lane's unsettled rows (counted up to `cap`), how many are due, and since when the oldest due one waits. */
export async function findLaneBacklog(
  db: Database,
  lane: JobLane,
  cap: number,
): Promise<{ queued: number; due: number; oldestDueAt: Date | null }> {
  const row = await sql<{ queued: string; due: string; oldest_due_at: Date | null }>`
    SELECT count(*) AS queued, count(*) FILTER (WHERE b.run_at <= now()) AS due,
           min(b.run_at) FILTER (WHERE b.run_at <= now()) AS oldest_due_at
    FROM (SELECT run_at FROM jobs WHERE lane = ${lane} AND status IN ('pending', 'running', 'dispatched')
          ORDER BY run_at LIMIT ${cap}) AS b`.execute(db);
  const r = row.rows[0]!;
  return {
    queued: Number(r.queued),
    due: Number(r.due),
    oldestDueAt: r.oldest_due_at === null ? null : new Date(r.oldest_due_at),
  };
}
