// `npm run qstash:schedules` against the local QStash stand-in: it creates one schedule per path vercel.json's crons
// leave out, a second run overwrites the same schedules, it deletes this deployment's stale schedules and no one
// else's, a dry run sends nothing, and a created schedule's call passes the cron route's check.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { cronTargets, qstashTargets, SWEEP_CRON } from "@/lib/platform/jobs/schedule";
import { GET } from "@/app/api/cron/[schedule]/route";
import {
  CRON_CALL_RETRIES,
  QSTASH_SCHEDULES_CLI,
  qstashSchedulesCommand,
  scheduleIdOf,
  vercelCrons,
} from "@/dev/cli/qstash-schedules-command";
import { parseCli } from "@/dev/cli/args";
import { call } from "@/tests/helpers/http";
import { type FakeQStash, type FakeSchedule, startFakeQStash } from "@/tests/helpers/qstash";
import { jobs } from "@/lib/domains/jobs";

const BASE = "https://tls.example.test";
const SECRET = "cron-secret-0123456789";
let qstash: FakeQStash;

const run = (...argv: string[]) => qstashSchedulesCommand(parseCli(QSTASH_SCHEDULES_CLI, argv)!);
const writes = () => qstash.server.requests.filter((r) => r.method !== "GET").length;

beforeAll(async () => {
  qstash = await startFakeQStash();
});

afterEach(() => {
  vi.restoreAllMocks();
  qstash.schedules.clear();
  for (const name of ["QSTASH_URL", "QSTASH_TOKEN", "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"])
    delete process.env[name];
  delete process.env.CRON_SECRET;
  delete process.env.PUBLIC_BASE_URL;
  resetConfig();
});

afterAll(() => qstash.close());

function configure() {
  qstash.useInService();
  process.env.CRON_SECRET = SECRET;
  process.env.PUBLIC_BASE_URL = BASE;
  resetConfig();
  vi.spyOn(console, "log").mockReturnValue();
}

describe("npm run qstash:schedules", () => {
  it("creates a GET schedule with the CRON_SECRET bearer for every path vercel.json's crons leave out", async () => {
    configure();
    const planned = qstashTargets(jobs, vercelCrons());
    expect(planned.map((t) => t.name)).toContain(SWEEP_CRON);
    const changes = await run();
    expect(changes.map((c) => c.action)).toEqual(planned.map(() => "create"));
    const expected: FakeSchedule[] = planned.map((t) => ({
      scheduleId: scheduleIdOf(BASE, t.name),
      cron: t.cron,
      destination: `${BASE}${t.path}`,
      method: "GET",
      header: { authorization: [`Bearer ${SECRET}`] },
      retries: CRON_CALL_RETRIES,
      createdAt: expect.any(Number),
      isPaused: false,
    }));
    expect([...qstash.schedules.values()]).toEqual(expected);
    // QStash is asked to keep the bearer out of its logs and console.
    const creations = qstash.server.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v2/schedules/"));
    expect(creations.map((r) => r.headers["upstash-redact-fields"])).toEqual(
      planned.map(() => "header[Authorization]"),
    );
    // Together with vercel.json's crons, every target is called exactly once.
    const called = [...vercelCrons().map((c) => c.path), ...[...qstash.schedules.values()].map((s) => s.destination)];
    expect(called.map((p) => p.replace(BASE, "")).sort()).toEqual(
      cronTargets(jobs)
        .map((t) => t.path)
        .sort(),
    );
  });

  it("overwrites the same schedules when run again (nothing created, nothing deleted)", async () => {
    configure();
    await run();
    const first = new Map(qstash.schedules);
    const again = await run();
    expect(again.every((c) => c.action === "update")).toBe(true);
    expect(again).toHaveLength(first.size);
    expect(qstash.schedules).toEqual(first);
  });

  it("deletes this deployment's other /api/cron/ schedules, and leaves other URLs' alone", async () => {
    configure();
    const seed = (scheduleId: string, destination: string): FakeSchedule => ({
      scheduleId,
      cron: "* * * * *",
      destination,
      method: "GET",
      header: {},
      retries: 3,
      createdAt: 0,
      isPaused: false,
    });
    const staging = "https://staging.example.test";
    for (const [id, destination] of [
      ["by-hand", `${BASE}/api/cron/token-index`],
      [scheduleIdOf(BASE, "old-job"), `${BASE}/api/cron/old-job`],
      [scheduleIdOf(staging, "token-index"), `${staging}/api/cron/token-index`],
      ["other-app", "https://elsewhere.example.test/hook"],
    ] as const)
      qstash.schedules.set(id, seed(id, destination));
    const changes = await run();
    expect(changes.filter((c) => c.action === "delete").map((c) => c.scheduleId)).toEqual([
      "by-hand",
      scheduleIdOf(BASE, "old-job"),
    ]);
    expect([...qstash.schedules.keys()]).toEqual(
      expect.arrayContaining([scheduleIdOf(staging, "token-index"), "other-app", scheduleIdOf(BASE, "token-index")]),
    );
    expect(qstash.schedules.has("by-hand")).toBe(false);
  });

  it("--delete removes every schedule calling the deployment's /api/cron/; --dry-run changes nothing", async () => {
    configure();
    await run("--url", `${BASE}/`);
    const count = qstash.schedules.size;
    const before = writes();
    const dry = await run("--delete", "--dry-run");
    expect(dry.map((c) => c.action)).toEqual(Array(count).fill("delete"));
    expect(writes()).toBe(before);
    expect(qstash.schedules.size).toBe(count);
    await run("--delete");
    expect(qstash.schedules.size).toBe(0);
  });

  it("--all schedules vercel.json's paths too (a deployment that is not on Vercel)", async () => {
    configure();
    await run("--all");
    expect([...qstash.schedules.values()].map((s) => s.destination.replace(BASE, "")).sort()).toEqual(
      cronTargets(jobs)
        .map((t) => t.path)
        .sort(),
    );
  });

  it("refuses to run without a token, a cron secret or a URL, sending nothing", async () => {
    const before = writes();
    process.env.CRON_SECRET = SECRET;
    process.env.PUBLIC_BASE_URL = BASE;
    resetConfig();
    await expect(run()).rejects.toThrow("QSTASH_TOKEN is not set");
    qstash.useInService();
    delete process.env.CRON_SECRET;
    resetConfig();
    await expect(run()).rejects.toThrow("CRON_SECRET is not set");
    process.env.CRON_SECRET = SECRET;
    delete process.env.PUBLIC_BASE_URL;
    resetConfig();
    await expect(run()).rejects.toThrow("set PUBLIC_BASE_URL or pass --url");
    await expect(run("--url", "ftp://x")).rejects.toThrow("--url must be an http(s) URL");
    await expect(run("--all", "--delete")).rejects.toThrow("--all and --delete exclude each other");
    expect(writes()).toBe(before);
  });

  it("creates schedules whose call the cron route accepts (and it enqueues the schedule's job)", async () => {
    configure();
    await run();
    const schedule = qstash.schedules.get(scheduleIdOf(BASE, "token-index"))!;
    // The route dispatches what it enqueued: without a token it stays in the outbox instead of reaching the stand-in.
    delete process.env.QSTASH_TOKEN;
    resetConfig();
    await db().deleteFrom("jobs").execute();
    const headers = Object.fromEntries(Object.entries(schedule.header).map(([k, v]) => [k, v[0]!]));
    const answer = await call(GET, new URL(schedule.destination).pathname, {
      method: schedule.method,
      headers,
      params: { schedule: "token-index" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ cron: "token-index", job: expect.any(String) });
    const rows = await db().selectFrom("jobs").select(["id", "dedupe_key"]).execute();
    const { jobId, bucket } = answer.body as { jobId: number; bucket: number };
    expect(rows).toEqual([{ id: jobId, dedupe_key: `schedule:token-index:${bucket}` }]);
    const refused = await call(GET, "/api/cron/token-index", { params: { schedule: "token-index" } });
    expect(refused.status).toBe(401);
  });
});
