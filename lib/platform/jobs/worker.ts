// The in-process worker: runs outbox rows with bounded concurrency per lane, woken by dispatchJobs(), else polling.
import { config, runsJobWorker } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { JOB_LANES, type JobLane } from "./define";
import { onJobsEnqueued } from "./dispatch";
import type { JobRegistry } from "./registry";
import { claimDueJobs, executeJob } from "./runner";
import { enqueueDueSchedules } from "./schedule";
import { remember } from "@/lib/core/remember";

/** Slots of each lane: a lane's jobs never take another lane's slots (see JOB_LANES). */
export const LANE_SLOTS: Record<JobLane, number> = { default: 4, webhooks: 4 };

export type WorkerOptions = {
  /** Jobs run at once in each lane: one number for every lane, or per lane (default LANE_SLOTS). */
  concurrency?: number | Partial<Record<JobLane, number>>;
  /** Poll interval when nothing wakes the worker (default 1000 ms): picks up delayed and retried jobs. */
  pollMs?: number;
  /** Which schedules this worker enqueues: all (default), none, or the named ones (tests). */
  schedules?: boolean | readonly string[];
};

/** One lane: its own loop, slots and wake-up, so a lane whose jobs hang never delays another's claim. */
type LaneState = {
  lane: JobLane;
  slots: number;
  inflight: Set<Promise<unknown>>;
  /** The last claim filled every free slot, so more may be due: a finishing job wakes the loop. */
  saturated: boolean;
  woken: boolean;
  wake?: () => void;
  failures: number;
  loop?: Promise<void>;
};

type WorkerState = {
  registry: JobRegistry;
  running: boolean;
  pollMs: number;
  schedules: boolean | readonly string[];
  lanes: LaneState[];
  unsubscribe?: () => void;
};

const holder = remember("jobs.worker", (): { state?: WorkerState } => ({}));

/** JOB_WORKER, else on exactly when QStash is not configured; never on Vercel (see runsJobWorker). */
export function workerEnabled(): boolean {
  return runsJobWorker(config());
}

function wake(lane: LaneState) {
  lane.woken = true;
  lane.wake?.();
}

function sleep(lane: LaneState, ms: number): Promise<void> {
  if (lane.woken) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref?.();
    lane.wake = done;
    function done() {
      clearTimeout(timer);
      lane.wake = undefined;
      resolve();
    }
  });
}

async function tick(state: WorkerState, lane: LaneState): Promise<void> {
  if (lane.lane === "default" && state.schedules !== false) {
    await enqueueDueSchedules(state.registry, new Date(), state.schedules === true ? undefined : state.schedules);
  }
  const free = lane.slots - lane.inflight.size;
  if (free <= 0) return;
  const jobs = await claimDueJobs(state.registry, free, lane.lane);
  lane.saturated = jobs.length === free;
  for (const job of jobs) {
    const running: Promise<unknown> = executeJob(state.registry, job)
      .catch((error) => log.error("recording a job outcome failed", { jobId: job.id, error }))
      .finally(() => {
        lane.inflight.delete(running);
        if (lane.saturated) wake(lane);
      });
    lane.inflight.add(running);
  }
}

async function loop(state: WorkerState, lane: LaneState): Promise<void> {
  while (state.running) {
    lane.woken = false;
    try {
      await tick(state, lane);
      lane.failures = 0;
    } catch (error) {
      // Database away (restart, network): keep polling, more slowly, until it answers again.
      lane.failures++;
      log.error("job worker tick failed", { lane: lane.lane, error, failures: lane.failures });
    }
    if (!state.running) break;
    await sleep(lane, lane.failures ? Math.min(30_000, state.pollMs * 2 ** lane.failures) : state.pollMs);
  }
}

/**
 * Starts the worker over the registry's jobs in this process unless it runs already or config says no (JOB_WORKER,
 * default: on when QSTASH_TOKEN is unset; never on Vercel). `force` ignores the config (tests, CLIs). Returns whether
 * it runs.
 */
export function startWorker(registry: JobRegistry, options: WorkerOptions & { force?: boolean } = {}): boolean {
  if (holder.state?.running) return true;
  // `next build` may load instrumentation while prerendering: never open the database for a worker then.
  if (process.env.NEXT_PHASE === "phase-production-build") return false;
  if (!options.force && !workerEnabled()) return false;
  const { concurrency } = options;
  const slotsOf = (lane: JobLane) =>
    Math.max(1, typeof concurrency === "number" ? concurrency : (concurrency?.[lane] ?? LANE_SLOTS[lane]));
  const state: WorkerState = {
    registry,
    running: true,
    pollMs: Math.max(10, options.pollMs ?? 1000),
    schedules: options.schedules ?? true,
    lanes: JOB_LANES.map((lane) => ({
      lane,
      slots: slotsOf(lane),
      inflight: new Set(),
      saturated: false,
      woken: false,
      failures: 0,
    })),
  };
  state.unsubscribe = onJobsEnqueued(() => state.lanes.forEach(wake));
  for (const lane of state.lanes) lane.loop = loop(state, lane);
  holder.state = state;
  log.info("job worker started", {
    slots: Object.fromEntries(state.lanes.map((l) => [l.lane, l.slots])),
    pollMs: state.pollMs,
  });
  return true;
}

/** Stops claiming, waits for the jobs in flight to finish and record their outcome. */
export async function stopWorker(): Promise<void> {
  const state = holder.state;
  if (!state) return;
  state.running = false;
  state.unsubscribe?.();
  state.lanes.forEach(wake);
  await Promise.all(state.lanes.map((lane) => lane.loop));
  await Promise.allSettled(state.lanes.flatMap((lane) => [...lane.inflight]));
  if (holder.state === state) holder.state = undefined;
}
