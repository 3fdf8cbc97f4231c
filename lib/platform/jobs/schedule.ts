// Recurring jobs: a schedule enqueues its job once per time bucket, from the local worker or through
// /api/cron/<name>, which a Vercel cron (daily ones) or a QStash schedule (the rest) calls.
import type { JobDefinition } from "./define";
import { enqueue } from "./define";
import type { JobRegistry } from "./registry";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";

export type ScheduleDefinition<T = unknown> = {
  /** Also the cron path: /api/cron/<name>. */
  name: string;
  /** One of the periods a cron expression can express: see cronExpression(). */
  everySeconds: number;
  job: JobDefinition<T>;
  /** The payload, or a function of the start of the bucket being enqueued. */
  payload: T | ((bucketStart: Date) => T);
};

/** Reserved cron path: the outbox sweep (lib/platform/jobs/outbox.ts), not a schedule. */
export const SWEEP_CRON = "dispatch";

/**
 * The cron expression of a period. Crons (Vercel's and QStash's) fire at most once a minute, on UTC
 * minute/hour boundaries, so a period must divide an hour (in whole minutes) or a day (in whole hours).
 */
export function cronExpression(everySeconds: number): string {
  if (!Number.isInteger(everySeconds) || everySeconds < 60)
    throw new Error(`everySeconds must be an integer >= 60, got ${everySeconds}`);
  const minutes = everySeconds / 60;
  if (Number.isInteger(minutes) && minutes < 60 && 60 % minutes === 0)
    return minutes === 1 ? "* * * * *" : `*/${minutes} * * * *`;
  const hours = everySeconds / 3600;
  if (Number.isInteger(hours) && hours < 24 && 24 % hours === 0)
    return hours === 1 ? "0 * * * *" : `0 */${hours} * * *`;
  if (everySeconds === 86_400) return "0 0 * * *";
  throw new Error(
    `everySeconds ${everySeconds} is not a cron period: use a divisor of 3600 in whole minutes, of 86400 in whole hours, or 86400`,
  );
}

/** Checks the name and the period; a schedule fires once a registry lists it (see registry.ts). */
export function defineSchedule<T>(definition: ScheduleDefinition<T>): ScheduleDefinition<T> {
  if (!/^[a-z0-9-]{1,64}$/.test(definition.name) || definition.name === SWEEP_CRON)
    throw new Error(`bad schedule name ${definition.name}`);
  cronExpression(definition.everySeconds);
  return definition;
}

/** A path a scheduler calls (GET, Bearer CRON_SECRET): the outbox sweep or a schedule, at its cron expression. */
export type CronTarget = { name: string; path: string; cron: string };

/** The sweep (every minute: it publishes what a failed publish left pending) and every schedule of the registry. */
export function cronTargets(registry: JobRegistry): CronTarget[] {
  return [
    { name: SWEEP_CRON, path: `/api/cron/${SWEEP_CRON}`, cron: "* * * * *" },
    ...[...registry.schedules.values()].map((s) => ({
      name: s.name,
      path: `/api/cron/${s.name}`,
      cron: cronExpression(s.everySeconds),
    })),
  ];
}

/**
 * Whether a cron expression fires at most once a day: a fixed minute and hour. Vercel's Hobby plan refuses a
 * deployment whose vercel.json holds a more frequent cron.
 */
export function runsAtMostDaily(expression: string): boolean {
  const [minute = "", hour = ""] = expression.trim().split(/\s+/);
  return /^\d{1,2}$/.test(minute) && /^\d{1,2}$/.test(hour);
}

/**
 * What QStash schedules call: every target vercel.json's crons leave out (`npm run qstash:schedules` creates
 * them). vercel.json keeps the daily ones, which every Vercel plan runs at no QStash cost.
 */
export function qstashTargets(registry: JobRegistry, vercelCrons: readonly { path: string }[]): CronTarget[] {
  const covered = new Set(vercelCrons.map((c) => c.path));
  return cronTargets(registry).filter((t) => !covered.has(t.path));
}

/** Buckets are aligned to the Unix epoch, so every process (and the cron) agrees on them. */
export function bucketOf(schedule: ScheduleDefinition, at: Date): number {
  return Math.floor(at.getTime() / 1000 / schedule.everySeconds);
}

/**
 * Enqueues the schedule's job for the bucket containing `at`. The dedupe key makes this idempotent
 * across processes and repeated cron calls: one job per schedule per bucket.
 */
export async function enqueueSchedule(
  schedule: ScheduleDefinition,
  at = new Date(),
): Promise<{ id: number; bucket: number }> {
  const bucket = bucketOf(schedule, at);
  const bucketStart = new Date(bucket * schedule.everySeconds * 1000);
  const payload =
    typeof schedule.payload === "function" ? (schedule.payload as (d: Date) => unknown)(bucketStart) : schedule.payload;
  const { id } = await enqueue(schedule.job, payload, { dedupeKey: `schedule:${schedule.name}:${bucket}` });
  return { id, bucket };
}

const lastBucket = remember("jobs.schedule-buckets", () => new Map<string, number>());

/**
 * The local worker's tick: enqueues each schedule whose bucket this process has not enqueued yet.
 * `only` limits it to some schedules (tests that must not start other domains' recurring work).
 */
export async function enqueueDueSchedules(
  registry: JobRegistry,
  at = new Date(),
  only?: readonly string[],
): Promise<number> {
  let enqueued = 0;
  for (const schedule of registry.schedules.values()) {
    if (only && !only.includes(schedule.name)) continue;
    const bucket = bucketOf(schedule, at);
    if (lastBucket.get(schedule.name) === bucket) continue;
    try {
      await enqueueSchedule(schedule, at);
      lastBucket.set(schedule.name, bucket);
      enqueued++;
    } catch (error) {
      log.error("enqueueing a scheduled job failed", { schedule: schedule.name, error });
    }
  }
  return enqueued;
}
