// Schedules: periods map to cron expressions; vercel.json holds only crons Vercel's Hobby plan accepts (at most
// daily), and every schedule, with the outbox sweep, is called by a vercel.json cron or a QStash schedule.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import {
  cronExpression,
  cronTargets,
  defineSchedule,
  qstashTargets,
  runsAtMostDaily,
  SWEEP_CRON,
} from "@/lib/platform/jobs/schedule";
import { jobs } from "@/lib/domains/jobs";

describe("schedules", () => {
  it("maps periods to cron expressions", () => {
    expect(cronExpression(60)).toBe("* * * * *");
    expect(cronExpression(300)).toBe("*/5 * * * *");
    expect(cronExpression(1800)).toBe("*/30 * * * *");
    expect(cronExpression(3600)).toBe("0 * * * *");
    expect(cronExpression(6 * 3600)).toBe("0 */6 * * *");
    expect(cronExpression(86_400)).toBe("0 0 * * *");
    for (const bad of [30, 90, 7 * 60, 5 * 3600, 2 * 86_400, 60.5]) expect(() => cronExpression(bad)).toThrow();
  });

  it("refuses bad names, the reserved sweep name and periods no cron can express", () => {
    const job = defineJob({ name: "test-schedule-noop", schema: z.object({}), handle: async () => {} });
    expect(() => defineSchedule({ name: SWEEP_CRON, everySeconds: 60, job, payload: {} })).toThrow();
    expect(() => defineSchedule({ name: "Bad Name", everySeconds: 60, job, payload: {} })).toThrow();
    expect(() => defineSchedule({ name: "test-every-45s", everySeconds: 45, job, payload: {} })).toThrow();
  });
});

describe("runsAtMostDaily", () => {
  it("accepts a fixed minute and hour, and nothing that fires more often", () => {
    for (const daily of ["0 0 * * *", "30 4 * * *", "0 12 * * 1", "5 3 1 * *"])
      expect(runsAtMostDaily(daily)).toBe(true);
    for (const more of ["* * * * *", "*/10 * * * *", "0 * * * *", "0 */6 * * *", "0 1,13 * * *", "0 1-3 * * *", ""])
      expect(runsAtMostDaily(more), more).toBe(false);
  });
});

describe("vercel.json", () => {
  const crons = (JSON.parse(readFileSync(path.join(import.meta.dirname, "../../../vercel.json"), "utf8")).crons ??
    []) as Array<{ path: string; schedule: string }>;
  // The server's schedules (lib/domains/jobs.ts), not this file's.
  const targets = cronTargets(jobs);

  it("holds only crons that run at most once a day (Vercel's Hobby plan refuses the others)", () => {
    for (const entry of crons) expect(runsAtMostDaily(entry.schedule), JSON.stringify(entry)).toBe(true);
  });

  it("names the sweep or a registered schedule in each cron, once, at its period", () => {
    for (const entry of crons) {
      const target = targets.find((t) => t.path === entry.path);
      expect(target, `vercel.json cron ${entry.path} names no schedule`).toBeDefined();
      expect(entry.schedule, `vercel.json cron ${entry.path}`).toBe(target!.cron);
    }
    expect(new Set(crons.map((c) => c.path)).size).toBe(crons.length);
  });

  it("keeps every daily schedule (free on every plan); QStash schedules call the rest, the sweep every minute", () => {
    for (const t of targets.filter((t) => runsAtMostDaily(t.cron)))
      expect(crons, `add to vercel.json "crons": ${JSON.stringify({ path: t.path, schedule: t.cron })}`).toContainEqual(
        { path: t.path, schedule: t.cron },
      );
    const viaQStash = qstashTargets(jobs, crons);
    expect(viaQStash).toContainEqual({ name: SWEEP_CRON, path: `/api/cron/${SWEEP_CRON}`, cron: "* * * * *" });
    expect(viaQStash.every((t) => !runsAtMostDaily(t.cron))).toBe(true);
    // Each target is called exactly once: by one cron or by one QStash schedule.
    const called = [...crons.map((c) => c.path), ...viaQStash.map((t) => t.path)].sort();
    expect(called).toEqual(targets.map((t) => t.path).sort());
    expect(targets.map((t) => t.path)).toEqual(
      expect.arrayContaining([...jobs.schedules.values()].map((s) => `/api/cron/${s.name}`)),
    );
  });
});
