// The in-process worker: runs outbox rows with bounded concurrency, woken by dispatchJobs(), else polling.
import { config } from "../config";
import { log } from "../log";
import { onJobsEnqueued } from "./dispatch";
import { claimDueJobs, executeJob } from "./runner";
import { enqueueDueSchedules } from "./schedule";

export type WorkerOptions = {
  /** Jobs run at once (default 4). */
  concurrency?: number;
  /** Poll interval when nothing wakes the worker (default 1000 ms): picks up delayed and retried jobs. */
  pollMs?: number;
  /** Which schedules this worker enqueues: all (default), none, or the named ones (tests). */
  schedules?: boolean | readonly string[];
};

type WorkerState = {
  running: boolean;
  concurrency: number;
  pollMs: number;
  schedules: boolean | readonly string[];
  inflight: Set<Promise<unknown>>;
  /** The last claim filled every free slot, so more may be due: a finishing job wakes the loop. */
  saturated: boolean;
  woken: boolean;
  wake?: () => void;
  failures: number;
  loop?: Promise<void>;
  unsubscribe?: () => void;
};

const holder = globalThis as unknown as { __jobWorker?: WorkerState };

/** JOB_WORKER, else on exactly when QStash is not configured. */
export function workerEnabled(): boolean {
  const cfg = config();
  return cfg.JOB_WORKER ?? !cfg.QSTASH_TOKEN;
}

function wake(state: WorkerState) {
  state.woken = true;
  state.wake?.();
}

function sleep(state: WorkerState, ms: number): Promise<void> {
  if (state.woken) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref?.();
    state.wake = done;
    function done() {
      clearTimeout(timer);
      state.wake = undefined;
      resolve();
    }
  });
}

async function tick(state: WorkerState): Promise<void> {
  if (state.schedules !== false) await enqueueDueSchedules(new Date(), state.schedules === true ? undefined : state.schedules);
  const free = state.concurrency - state.inflight.size;
  if (free <= 0) return;
  const jobs = await claimDueJobs(free);
  state.saturated = jobs.length === free;
  for (const job of jobs) {
    const running: Promise<unknown> = executeJob(job)
      .catch((error) => log.error("recording a job outcome failed", { jobId: job.id, error }))
      .finally(() => {
        state.inflight.delete(running);
        if (state.saturated) wake(state);
      });
    state.inflight.add(running);
  }
}

async function loop(state: WorkerState): Promise<void> {
  while (state.running) {
    state.woken = false;
    try {
      await tick(state);
      state.failures = 0;
    } catch (error) {
      // Database away (restart, network): keep polling, more slowly, until it answers again.
      state.failures++;
      log.error("job worker tick failed", { error, failures: state.failures });
    }
    if (!state.running) break;
    await sleep(state, state.failures ? Math.min(30_000, state.pollMs * 2 ** state.failures) : state.pollMs);
  }
}

/**
 * Starts the worker in this process unless it runs already or config says no (JOB_WORKER, default:
 * on when QSTASH_TOKEN is unset). `force` ignores the config (tests, CLIs). Returns whether it runs.
 */
export function startWorker(options: WorkerOptions & { force?: boolean } = {}): boolean {
  if (holder.__jobWorker?.running) return true;
  // `next build` may load instrumentation while prerendering: never open the database for a worker then.
  if (process.env.NEXT_PHASE === "phase-production-build") return false;
  if (!options.force && !workerEnabled()) return false;
  const state: WorkerState = {
    running: true,
    concurrency: Math.max(1, options.concurrency ?? 4),
    pollMs: Math.max(10, options.pollMs ?? 1000),
    schedules: options.schedules ?? true,
    inflight: new Set(),
    saturated: false,
    woken: false,
    failures: 0,
  };
  state.unsubscribe = onJobsEnqueued(() => wake(state));
  state.loop = loop(state);
  holder.__jobWorker = state;
  log.info("job worker started", { concurrency: state.concurrency, pollMs: state.pollMs });
  return true;
}

/** Stops claiming, waits for the jobs in flight to finish and record their outcome. */
export async function stopWorker(): Promise<void> {
  const state = holder.__jobWorker;
  if (!state) return;
  state.running = false;
  state.unsubscribe?.();
  wake(state);
  await state.loop;
  await Promise.allSettled([...state.inflight]);
  if (holder.__jobWorker === state) holder.__jobWorker = undefined;
}
