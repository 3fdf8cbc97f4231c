// The in-process worker: bounded concurrency per lane, woken by dispatchJobs, schedules, and the outbox surviving a crash.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { z } from "zod";
import { closeDb, db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { remember } from "@/lib/core/remember";
import { defineJob, enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { defineSchedule, enqueueDueSchedules, enqueueSchedule } from "@/lib/platform/jobs/schedule";
import { startWorker, stopWorker, workerEnabled } from "@/lib/platform/jobs/worker";
import { jobRegistry } from "@/lib/platform/jobs/registry";
import { jobs as serverJobs } from "@/lib/domains/jobs";
import { freezeDate } from "@/tests/helpers/clock";

const runs = new Map<string, number>();
let inFlight = 0;
let maxInFlight = 0;

const slow = defineJob({
  name: "test-worker-slow",
  schema: z.object({ key: z.string() }),
  handle: async ({ key }) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 30));
    inFlight--;
    runs.set(key, (runs.get(key) ?? 0) + 1);
  },
});

const tick = defineJob({
  name: "test-worker-tick",
  schema: z.object({ at: z.string() }),
  handle: async ({ at }) => void runs.set(`tick:${at}`, (runs.get(`tick:${at}`) ?? 0) + 1),
});

/** A webhooks-lane job that hangs until the test lets it go, as a delivery to a receiver that never answers. */
let releaseHung: () => void = () => {};
let hung = new Promise<void>((resolve) => (releaseHung = resolve));
const hangs = defineJob({
  name: "test-worker-hangs",
  schema: z.object({ key: z.string() }),
  lane: "webhooks",
  handle: async () => {
    inFlight++;
    await hung;
    inFlight--;
  },
});

const tickSchedule = defineSchedule({
  name: "test-worker-tick",
  everySeconds: 60,
  job: tick,
  payload: (bucketStart) => ({ at: bucketStart.toISOString() }),
});

/** The server's jobs and this file's. */
const jobs = jobRegistry([serverJobs, { jobs: [slow, tick, hangs], schedules: [tickSchedule] }]);

const statusOf = async (id: number) =>
  (await db().selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
const waitDone = (ids: number[]) =>
  vi.waitFor(
    async () => {
      for (const id of ids) expect(await statusOf(id)).toBe("done");
    },
    { timeout: 15_000, interval: 50 },
  );

beforeEach(async () => {
  await db().deleteFrom("jobs").execute();
  runs.clear();
  maxInFlight = 0;
});

afterEach(async () => {
  await stopWorker();
  delete process.env.JOB_WORKER;
  delete process.env.QSTASH_TOKEN;
  resetConfig();
});

describe("job worker", () => {
  it("runs every due job once, never more than `concurrency` at a time", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push((await enqueue(slow, { key: `c${i}` })).id);
    startWorker(jobs, { concurrency: 3, pollMs: 50, force: true, schedules: false });
    await waitDone(ids);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(maxInFlight).toBeGreaterThan(1);
    for (let i = 0; i < 8; i++) expect(runs.get(`c${i}`)).toBe(1);
  });

  it("gives each lane its own slots: jobs hanging in the webhooks lane never hold back the default lane", async () => {
    hung = new Promise<void>((resolve) => (releaseHung = resolve));
    inFlight = 0;
    for (let i = 0; i < 6; i++) await enqueue(hangs, { key: `h${i}` });
    startWorker(jobs, { concurrency: 2, pollMs: 50, force: true, schedules: false });
    try {
      await vi.waitFor(() => expect(inFlight).toBe(2), { timeout: 15_000, interval: 20 });
      const { id } = await enqueue(slow, { key: "behind-hung" });
      await dispatchJobs();
      await waitDone([id]);
      expect(inFlight).toBe(2); // the lane's slots are full and stay so: nothing else of it started
    } finally {
      releaseHung();
    }
  });

  it("is woken by dispatchJobs() instead of waiting for its next poll", async () => {
    startWorker(jobs, { pollMs: 600_000, force: true, schedules: false });
    // Until its first (empty) tick has passed in every lane: each now sleeps 10 minutes, waiting to be woken.
    const worker = remember<{ state?: { lanes: { wake?: () => void }[] } }>("jobs.worker", () => ({}));
    await vi.waitFor(() => expect(worker.state?.lanes.every((lane) => lane.wake !== undefined)).toBe(true), {
      timeout: 15_000,
      interval: 10,
    });
    const { id } = await enqueue(slow, { key: "woken" });
    await dispatchJobs();
    await waitDone([id]);
    expect(runs.get("woken")).toBe(1);
  });

  it("runs a job enqueued before a crash, and one whose runner died mid-run, exactly once after restart", async () => {
    const queued = await enqueue(slow, { key: "queued-before-crash" });
    const orphan = await enqueue(slow, { key: "running-at-crash" });
    // The process died while running `orphan`: claimed (attempt 1), lease now expired.
    await db()
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, locked_until: sql`now() - interval '1 second'` })
      .where("id", "=", orphan.id)
      .execute();
    await closeDb(); // the crash: nothing ran, the connection is gone

    startWorker(jobs, { pollMs: 50, force: true, schedules: false }); // the restarted process (db() reopens the same database)
    await waitDone([queued.id, orphan.id]);
    await stopWorker();
    expect(runs.get("queued-before-crash")).toBe(1);
    expect(runs.get("running-at-crash")).toBe(1);
    const attempts = await db().selectFrom("jobs").select(["id", "attempts"]).orderBy("id").execute();
    expect(attempts).toEqual([
      { id: queued.id, attempts: 1 },
      { id: orphan.id, attempts: 2 },
    ]);
  });

  it("leaves a job whose lease is still held alone", async () => {
    const { id } = await enqueue(slow, { key: "held" });
    await db()
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, locked_until: sql`now() + interval '1 hour'` })
      .where("id", "=", id)
      .execute();
    const other = await enqueue(slow, { key: "free" });
    startWorker(jobs, { pollMs: 50, force: true, schedules: false });
    await waitDone([other.id]);
    expect(await statusOf(id)).toBe("running");
    expect(runs.get("held")).toBeUndefined();
  });

  it("enqueues a schedule once per time bucket, across processes, and runs it", async () => {
    const schedule = tickSchedule;
    const at = new Date("2026-11-22T10:00:30Z");
    await enqueueDueSchedules(jobs, at, ["test-worker-tick"]);
    await enqueueDueSchedules(jobs, at, ["test-worker-tick"]); // same process, same bucket: skipped in memory
    const again = await enqueueSchedule(schedule, new Date("2026-11-22T10:00:59Z")); // "another process": deduped by key
    await enqueueSchedule(schedule, new Date("2026-11-22T10:01:00Z")); // next bucket
    const rows = await db()
      .selectFrom("jobs")
      .select(["id", "dedupe_key", "payload"])
      .where("name", "=", "test-worker-tick")
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.dedupe_key)).toEqual([
      `schedule:test-worker-tick:${Math.floor(at.getTime() / 60_000)}`,
      `schedule:test-worker-tick:${Math.floor(at.getTime() / 60_000) + 1}`,
    ]);
    expect(again.id).toBe(rows[0].id);
    expect(rows[0].payload).toEqual({ at: "2026-11-22T10:00:00.000Z" });

    await db().deleteFrom("jobs").execute();
    freezeDate(); // one minute's bucket however long the worker takes to run it
    startWorker(jobs, { pollMs: 50, force: true, schedules: ["test-worker-tick"] }); // its ticks enqueue the current bucket and run it
    await vi.waitFor(
      async () => {
        const done = await db().selectFrom("jobs").select("status").where("name", "=", "test-worker-tick").execute();
        expect(done.map((r) => r.status)).toEqual(["done"]);
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it("is on by default without QStash, off with it, and JOB_WORKER decides when set", () => {
    expect(workerEnabled()).toBe(true);
    process.env.QSTASH_TOKEN = "token";
    resetConfig();
    expect(workerEnabled()).toBe(false);
    expect(startWorker(jobs)).toBe(false);
    process.env.JOB_WORKER = "true";
    resetConfig();
    expect(workerEnabled()).toBe(true);
    delete process.env.QSTASH_TOKEN;
    process.env.JOB_WORKER = "false";
    resetConfig();
    expect(workerEnabled()).toBe(false);
  });
});
