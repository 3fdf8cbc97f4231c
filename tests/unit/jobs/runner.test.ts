// The outbox and its runner: transactional enqueue, dedupe keys, retries with backoff, permanent failure,
// lanes and concurrency keys.
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { defineJob, enqueue, PermanentJobError } from "@/lib/platform/jobs/define";
import { backoffSeconds, claimDueJobs, executeJob, runDueJobs, runJobById } from "@/lib/platform/jobs/runner";
import { jobRegistry } from "@/lib/platform/jobs/registry";
import { jobs as serverJobs } from "@/lib/domains/jobs";

const calls = new Map<string, number>();
const count = (key: string) => calls.set(key, (calls.get(key) ?? 0) + 1).get(key)!;

const record = defineJob({
  name: "test-record",
  schema: z.object({ key: z.string() }),
  handle: async ({ key }) => ({ runs: count(key) }),
});

/** Fails `failures` times for a key, then succeeds. */
const flaky = defineJob({
  name: "test-flaky",
  schema: z.object({ key: z.string(), failures: z.number() }),
  handle: async ({ key, failures }) => {
    if (count(key) <= failures) throw new Error(`flaky failure ${calls.get(key)}`);
    return "ok";
  },
});

const broken = defineJob({
  name: "test-broken",
  schema: z.object({ key: z.string() }),
  handle: async ({ key }) => {
    count(key);
    throw new PermanentJobError("the token does not exist");
  },
});

const alwaysFails = defineJob({
  name: "test-always-fails",
  schema: z.object({ key: z.string() }),
  maxAttempts: 3,
  handle: async ({ key }) => {
    throw new Error(`transient ${count(key)}`);
  },
});

/** A job of the webhooks lane; jobs of one group share a concurrency key. */
const grouped = defineJob({
  name: "test-grouped",
  schema: z.object({ key: z.string(), group: z.string() }),
  lane: "webhooks",
  concurrencyKey: ({ group }) => `test-group-${group}`,
  handle: async ({ key }) => ({ runs: count(key) }),
});

/** The server's jobs and this file's. */
const jobs = jobRegistry([serverJobs, { jobs: [record, flaky, broken, alwaysFails, grouped] }]);

const row = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
/** Moves a retried job's run_at to now instead of waiting out its backoff. */
const makeDue = (id: number) => db().updateTable("jobs").set({ run_at: sql`now()` }).where("id", "=", id).execute();

beforeEach(async () => {
  await db().deleteFrom("jobs").execute();
  calls.clear();
});

describe("enqueue", () => {
  it("writes nothing when the enqueuing transaction rolls back", async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueue(record, { key: "rolled-back" }, { db: trx });
          throw new Error("abort");
        }),
    ).rejects.toThrow("abort");
    expect(await db().selectFrom("jobs").select("id").execute()).toEqual([]);
    expect(await runDueJobs(jobs)).toEqual([]);
  });

  it("commits with the transaction that enqueued it", async () => {
    const { id } = await db()
      .transaction()
      .execute((trx) => enqueue(record, { key: "committed" }, { db: trx }));
    expect((await row(id)).status).toBe("pending");
    expect(await runDueJobs(jobs)).toEqual([{ id, status: "done" }]);
    expect((await row(id)).result).toEqual({ runs: 1 });
  });

  it("returns the first job for a repeated dedupeKey and runs it once", async () => {
    const first = await enqueue(record, { key: "dedupe" }, { dedupeKey: "once" });
    const second = await enqueue(record, { key: "dedupe" }, { dedupeKey: "once" });
    expect(second.id).toBe(first.id);
    await runDueJobs(jobs);
    await enqueue(record, { key: "dedupe" }, { dedupeKey: "once" });
    expect(await runDueJobs(jobs)).toEqual([]);
    expect(calls.get("dedupe")).toBe(1);
  });

  it("rejects a payload its schema refuses, writing nothing", async () => {
    await expect(enqueue(record, { key: 5 } as any)).rejects.toThrow();
    expect(await db().selectFrom("jobs").select("id").execute()).toEqual([]);
  });

  it("does not run a delayed job before its time", async () => {
    const { id } = await enqueue(record, { key: "later" }, { delaySeconds: 3600 });
    expect(await runDueJobs(jobs)).toEqual([]);
    expect(await runJobById(jobs, id)).toBeNull();
    await makeDue(id);
    expect(await runJobById(jobs, id)).toEqual({ id, status: "done" });
  });
});

describe("running", () => {
  it("retries a failing job with backoff, then succeeds", async () => {
    const { id } = await enqueue(flaky, { key: "flaky", failures: 2 });
    const [first] = await runDueJobs(jobs);
    expect(first).toMatchObject({ id, status: "retry", retryInSeconds: 2 });
    let state = await row(id);
    expect(state).toMatchObject({ status: "pending", attempts: 1, last_error: "flaky failure 1", locked_until: null });
    expect(state.run_at.getTime()).toBeGreaterThan(state.updated_at.getTime());
    expect(await runDueJobs(jobs)).toEqual([]); // backing off

    await makeDue(id);
    expect((await runDueJobs(jobs))[0]).toMatchObject({ status: "retry", retryInSeconds: 4 });
    await makeDue(id);
    expect(await runDueJobs(jobs)).toEqual([{ id, status: "done" }]);
    state = await row(id);
    expect(state).toMatchObject({ status: "done", attempts: 3, last_error: null, result: "ok" });
  });

  it("records a permanent failure without retrying", async () => {
    const { id } = await enqueue(broken, { key: "broken" });
    expect(await runDueJobs(jobs)).toEqual([{ id, status: "failed", error: "the token does not exist" }]);
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 1, last_error: "the token does not exist" });
    await makeDue(id);
    expect(await runDueJobs(jobs)).toEqual([]);
    expect(calls.get("broken")).toBe(1);
  });

  it("gives up after maxAttempts", async () => {
    const { id } = await enqueue(alwaysFails, { key: "max" });
    for (let i = 0; i < 5; i++) {
      await makeDue(id);
      await runDueJobs(jobs);
    }
    expect(calls.get("max")).toBe(3);
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 3, max_attempts: 3, last_error: "transient 3" });
  });

  it("records a row naming no known job, or with a payload the schema refuses, as failed", async () => {
    const [unknown] = await db()
      .insertInto("jobs")
      .values([
        { name: "no-such-job", payload: JSON.stringify({}), run_at: new Date() },
        { name: "test-record", payload: JSON.stringify({ key: 1 }), run_at: new Date() },
      ])
      .returning("id")
      .execute();
    const outcomes = await runDueJobs(jobs);
    expect(outcomes.map((o) => o.status)).toEqual(["failed", "failed"]);
    expect((await row(unknown.id)).last_error).toBe("no job named no-such-job");
  });

  it("claims each job once when runners race (SKIP LOCKED)", async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await enqueue(record, { key: `race-${i}` })).id);
    const results = (await Promise.all([runDueJobs(jobs, 4), runDueJobs(jobs, 4), runDueJobs(jobs, 4)])).flat();
    expect(results.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids);
    for (let i = 0; i < 6; i++) expect(calls.get(`race-${i}`)).toBe(1);
  });

  it("does not let a runner whose lease was taken over overwrite the newer attempt", async () => {
    const { id } = await enqueue(record, { key: "lease" });
    // Another runner took the job over (attempt 2) while an older attempt was still finishing.
    await db()
      .updateTable("jobs")
      .set({ status: "running", attempts: 2, locked_until: sql`now() + interval '1 minute'` })
      .where("id", "=", id)
      .execute();
    const { executeJob } = await import("@/lib/platform/jobs/runner");
    await executeJob(jobs, { id, name: "test-record", payload: { key: "lease" }, attempts: 1, max_attempts: 8 });
    expect(await row(id)).toMatchObject({ status: "running", attempts: 2 });
  });

  it("backs off 2, 4, 8 … seconds, capped at 10 minutes", () => {
    expect([1, 2, 3, 4, 9, 10, 30].map(backoffSeconds)).toEqual([2, 4, 8, 16, 512, 600, 600]);
  });
});

describe("lanes and concurrency keys", () => {
  it("stores each job's lane and key, and claims each lane apart", async () => {
    const hooks = [];
    for (let i = 0; i < 6; i++) hooks.push(await enqueue(grouped, { key: `lane-${i}`, group: `g${i}` }));
    const plain = await enqueue(record, { key: "default-lane" });
    expect(await row(hooks[0].id)).toMatchObject({ lane: "webhooks", concurrency_key: "test-group-g0" });
    expect(await row(plain.id)).toMatchObject({ lane: "default", concurrency_key: null });
    // The default lane's claim finds its job behind six due ones of the other lane.
    expect((await claimDueJobs(jobs, 2, "default")).map((j) => j.id)).toEqual([plain.id]);
    expect((await claimDueJobs(jobs, 4, "webhooks")).map((j) => j.id)).toEqual(hooks.slice(0, 4).map((h) => h.id));
  });

  it("claims one job per key, none of a key whose job holds its lease, and the key again once a dead runner's lease expires", async () => {
    const a = [];
    for (let i = 0; i < 3; i++) a.push(await enqueue(grouped, { key: `a${i}`, group: "a" }));
    const b = await enqueue(grouped, { key: "b0", group: "b" });
    expect((await claimDueJobs(jobs, 10, "webhooks")).map((j) => j.id)).toEqual([a[0].id, b.id]);
    expect(await claimDueJobs(jobs, 10, "webhooks")).toEqual([]);
    expect(await runJobById(jobs, a[1].id)).toBeNull(); // a QStash delivery of the same key waits too
    expect(await runDueJobs(jobs)).toEqual([]);
    // The runner of a[0] died: once its lease has expired, a[0] runs again (the key is not locked for good).
    await db()
      .updateTable("jobs")
      .set({ locked_until: sql`now() - interval '1 second'` })
      .where("id", "=", a[0].id)
      .execute();
    const [again] = await claimDueJobs(jobs, 10, "webhooks");
    expect(again).toMatchObject({ id: a[0].id, attempts: 2 });
    expect(await executeJob(jobs, again)).toEqual({ id: a[0].id, status: "done" });
    expect(await runJobById(jobs, a[2].id)).toEqual({ id: a[2].id, status: "done" }); // by id: any due job of a free key
    expect((await runDueJobs(jobs)).map((o) => o.id)).toEqual([a[1].id]);
  });

  it("never hands two racing claimers jobs of the same key", async () => {
    for (let i = 0; i < 6; i++) await enqueue(grouped, { key: `race-${i}`, group: "race" });
    const claimed = (await Promise.all([1, 2, 3, 4].map(() => claimDueJobs(jobs, 3, "webhooks")))).flat();
    expect(claimed).toHaveLength(1);
  });
});
