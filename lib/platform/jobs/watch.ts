// What operators watch of the jobs: each schedule's last successful run and whether it still fires, the failed
// rows, a lane's backlog, and (with QStash) whether each expected QStash schedule exists. Everything here reads the
// jobs table through indexed, bounded statements, except checkQStashSchedules, which asks QStash once.
import { db } from "@/db";
import { config } from "@/lib/core/config";
import vercel from "@/vercel.json";
import type { JobLane } from "./define";
import { listQStashSchedules, qstashEnabled } from "./qstash";
import {
  countUnseenFailedJobs,
  findExistingDedupeKeys,
  findFailedJobs,
  findLaneBacklog,
  findLastDoneAt,
  findOldestJobCreatedAt,
  markFailedJobsSeen,
} from "./queries";
import type { JobRegistry } from "./registry";
import { bucketOf, cronTargets, qstashTargets, type ScheduleDefinition } from "./schedule";

const DAY_MS = 86_400_000;

/** Buckets a schedule may leave empty before it counts as silent: the current one and the one before. */
const SILENT_AFTER_BUCKETS = 2;

/**
 * Schedules that stopped firing: none of their current and last two time buckets was enqueued (the dedupe key
 * `schedule:<name>:<bucket>` names each). A QStash schedule that is missing, paused or refused (a wrong
 * CRON_SECRET) looks the same. Only judged once the table's history (its oldest row) reaches back that far, so a
 * new database does not count every schedule as silent.
 */
export async function findSilentSchedules(registry: JobRegistry, at = new Date()): Promise<string[]> {
  const schedules = [...registry.schedules.values()];
  const oldest = await findOldestJobCreatedAt(db());
  if (!oldest || !schedules.length) return [];
  const judged = schedules.filter(
    (s) => at.getTime() - oldest.getTime() >= (SILENT_AFTER_BUCKETS + 1) * s.everySeconds * 1000,
  );
  const keysOf = (s: ScheduleDefinition) => {
    const bucket = bucketOf(s, at);
    return Array.from({ length: SILENT_AFTER_BUCKETS + 1 }, (_, i) => `schedule:${s.name}:${bucket - i}`);
  };
  const found = await findExistingDedupeKeys(db(), judged.flatMap(keysOf));
  return judged.filter((s) => !keysOf(s).some((k) => found.has(k))).map((s) => s.name);
}

/**
 * Job names whose last successful run is older than `maxAgeMs` (or that never succeeded while the table's history
 * is that old): the indexers' lag as the database knows it, without asking a chain.
 */
export async function findStaleJobs(names: readonly string[], maxAgeMs: number, at = new Date()): Promise<string[]> {
  if (!names.length) return [];
  const [lastDone, oldest] = await Promise.all([findLastDoneAt(db(), names), findOldestJobCreatedAt(db())]);
  const bound = at.getTime() - maxAgeMs;
  return names.filter((name) => {
    const done = lastDone.get(name);
    if (done) return done.getTime() < bound;
    return oldest !== null && oldest.getTime() < bound;
  });
}

/** Failed rows from the last day nobody has seen yet (the operator view marks what it lists), counted up to 1000. */
export function countRecentUnseenFailures(at = new Date()): Promise<number> {
  return countUnseenFailedJobs(db(), new Date(at.getTime() - DAY_MS), 1000);
}

export type FailedJob = { id: number; job: string; attempts: number; lastError: string | null; failedAt: Date };

/**
 * Failed rows of the last day, and older ones nobody has seen, newest first (at most `limit`); lists them as seen,
 * so the prune may delete them once they are past the retention.
 */
export async function listFailedJobsAsSeen(limit: number, at = new Date()): Promise<FailedJob[]> {
  const rows = await findFailedJobs(db(), new Date(at.getTime() - DAY_MS), limit);
  await markFailedJobsSeen(
    db(),
    rows.filter((r) => !r.seen_at).map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    job: r.name,
    attempts: r.attempts,
    lastError: r.last_error,
    failedAt: r.updated_at,
  }));
}

/** The lane's queued rows (counted up to 10,000), the due ones, and since when the oldest due one waits. */
export function laneBacklog(lane: JobLane) {
  return findLaneBacklog(db(), lane, 10_000);
}

export type ScheduleRun = {
  name: string;
  path: string;
  cron: string;
  calledBy: "vercel" | "qstash";
  /** The sweep is no job: it has no runs. */
  lastSuccessAt: Date | null;
};

/** Every path a scheduler calls, who calls it in production, and the last successful run of its job. */
export async function scheduleRuns(registry: JobRegistry): Promise<ScheduleRun[]> {
  const targets = cronTargets(registry);
  const viaQStash = new Set(qstashTargets(registry, vercel.crons).map((t) => t.name));
  const jobOf = new Map([...registry.schedules.values()].map((s) => [s.name, s.job.name]));
  const lastDone = await findLastDoneAt(db(), [...new Set(jobOf.values())]);
  return targets.map((t) => {
    const job = jobOf.get(t.name);
    return {
      name: t.name,
      path: t.path,
      cron: t.cron,
      calledBy: viaQStash.has(t.name) ? "qstash" : "vercel",
      lastSuccessAt: job ? (lastDone.get(job) ?? null) : null,
    };
  });
}

export type QStashCheck =
  | { checked: false; reason: string }
  | { checked: true; present: string[]; paused: string[]; missing: string[] }
  | { checked: true; error: string };

/**
 * Whether QStash holds a schedule for each path it should call (those vercel.json leaves out): one calling
 * PUBLIC_BASE_URL + the path, as `npm run qstash:schedules` creates them. One list call, bounded by `timeoutMs`.
 */
export async function checkQStashSchedules(registry: JobRegistry, timeoutMs: number): Promise<QStashCheck> {
  if (!qstashEnabled()) return { checked: false, reason: "QSTASH_TOKEN is not set" };
  const base = config().PUBLIC_BASE_URL?.replace(/\/+$/, "");
  if (!base) return { checked: false, reason: "PUBLIC_BASE_URL is not set" };
  let existing: Awaited<ReturnType<typeof listQStashSchedules>>;
  try {
    existing = await listQStashSchedules(timeoutMs);
  } catch (error) {
    return { checked: true, error: error instanceof Error ? error.message : String(error) };
  }
  const present: string[] = [];
  const paused: string[] = [];
  const missing: string[] = [];
  for (const target of qstashTargets(registry, vercel.crons)) {
    const found = existing.filter((s) => s.destination === `${base}${target.path}`);
    if (found.some((s) => !s.isPaused)) present.push(target.name);
    else if (found.length) paused.push(target.name);
    else missing.push(target.name);
  }
  return { checked: true, present, paused, missing };
}
