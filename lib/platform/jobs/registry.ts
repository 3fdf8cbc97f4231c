// The jobs a process runs: one list, built from each domain's set and handed to whoever runs or watches them (the
// worker, the QStash delivery and cron routes, the health check, tests). The platform knows no domain: the server's
// list is built in lib/domains/jobs.ts.
import type { JobDefinition, JobLane } from "./define";
import type { Retention } from "./retention";
import type { ScheduleDefinition } from "./schedule";

/** What a domain's jobs.ts exports: its jobs, the schedules that enqueue them, the prunes of its own history. */
export type JobSet = {
  jobs?: readonly JobDefinition<any>[];
  schedules?: readonly ScheduleDefinition<any>[];
  retentions?: readonly Retention[];
};

export type JobRegistry = {
  jobs: ReadonlyMap<string, JobDefinition<any>>;
  schedules: ReadonlyMap<string, ScheduleDefinition<any>>;
  retentions: readonly Retention[];
};

function add<T extends { name: string }>(into: Map<string, T>, item: T, kind: string): void {
  if (into.has(item.name)) throw new Error(`two ${kind}s named ${item.name}`);
  into.set(item.name, item);
}

/**
 * One registry of sets (or of registries, to add test jobs to the server's). Refuses two jobs, schedules or
 * prunes of one name, and a schedule whose job is not listed: it would enqueue rows nothing runs.
 */
export function jobRegistry(sets: readonly (JobSet | JobRegistry)[]): JobRegistry {
  const jobs = new Map<string, JobDefinition<any>>();
  const schedules = new Map<string, ScheduleDefinition<any>>();
  const retentions = new Map<string, Retention>();
  for (const set of sets) {
    for (const job of set.jobs?.values() ?? []) add(jobs, job, "job");
    for (const schedule of set.schedules?.values() ?? []) add(schedules, schedule, "schedule");
    for (const retention of set.retentions ?? []) add(retentions, retention, "retention");
  }
  for (const schedule of schedules.values())
    if (jobs.get(schedule.job.name) !== schedule.job)
      throw new Error(`schedule ${schedule.name} enqueues ${schedule.job.name}, which the registry does not list`);
  return { jobs, schedules, retentions: [...retentions.values()] };
}

/** Whether a lane (or, without one, any lane) has jobs with a concurrency key. */
export function laneHasConcurrencyKeys(registry: JobRegistry, lane?: JobLane): boolean {
  for (const job of registry.jobs.values())
    if (job.concurrencyKey && (lane === undefined || (job.lane ?? "default") === lane)) return true;
  return false;
}
