// defineJob and enqueue: a job is an outbox row written in the caller's transaction, run at least once.
import type { ZodType } from "zod";
import { type Database, db } from "@/db";
import { deletePendingJob, findJobIdByDedupeKey, insertJob } from "./queries";

export type JobContext = { jobId: number; attempt: number };

/**
 * The in-process worker gives each lane its own slots and claims each lane's due rows apart, so a job
 * only ever waits behind jobs of its own lane. Webhook deliveries wait on partners' servers, which may
 * never answer: they have a lane of their own, and deploys, trees and indexing never queue behind them.
 */
export const JOB_LANES = ["default", "webhooks"] as const;
export type JobLane = (typeof JOB_LANES)[number];

export type JobDefinition<T = unknown> = {
  name: string;
  schema: ZodType<T>;
  /** Must be idempotent: QStash and the worker deliver at least once. */
  handle(payload: T, ctx: JobContext): Promise<unknown>;
  maxAttempts?: number;
  /** Default: "default". */
  lane?: JobLane;
  /**
   * Jobs with the same key never run at the same time: the claim skips a key while one of its jobs holds
   * a lease, and QStash gets the key as a flow-control key with parallelism 1.
   */
  concurrencyKey?(payload: T): string;
};

/** Thrown by a handler for a failure that retrying cannot fix: recorded, never retried. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** Checks the name and types the payload; a job runs once a registry lists it (see registry.ts). */
export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  if (!/^[a-z0-9-]{1,64}$/.test(definition.name)) throw new Error(`bad job name ${definition.name}`);
  return definition;
}

export type EnqueueOptions = {
  /** The caller's transaction: the row commits (or not) with the data that needs it. */
  db?: Database;
  delaySeconds?: number;
  /** A second enqueue with the same key is a no-op that returns the first job. */
  dedupeKey?: string;
};

export async function enqueue<T>(
  job: JobDefinition<T>,
  payload: T,
  options: EnqueueOptions = {},
): Promise<{ id: number }> {
  const valid = job.schema.parse(payload);
  const executor = options.db ?? db();
  const runAt = new Date(Date.now() + Math.max(0, options.delaySeconds ?? 0) * 1000);
  const inserted = await insertJob(executor, {
    name: job.name,
    payload: JSON.stringify(valid),
    run_at: runAt,
    dedupe_key: options.dedupeKey ?? null,
    max_attempts: job.maxAttempts ?? 8,
    lane: job.lane ?? "default",
    concurrency_key: job.concurrencyKey?.(valid) ?? null,
  });
  if (inserted) return inserted;
  return findJobIdByDedupeKey(executor, options.dedupeKey!);
}

/**
 * Withdraws a job nothing has taken yet (no runner claimed it, it was not handed to QStash), for when what it was
 * queued to do is already done. False when it was taken: it then runs as it would have.
 */
export function withdrawJob(id: number): Promise<boolean> {
  return deletePendingJob(db(), id);
}
