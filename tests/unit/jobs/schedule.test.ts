// Schedules: periods map to Vercel cron expressions, and vercel.json lists a cron for every schedule.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import { allSchedules, cronExpression, defineSchedule, SWEEP_CRON } from "@/lib/platform/jobs/schedule";
import "@/lib/domains/jobs";

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

describe("vercel.json", () => {
  const crons = (JSON.parse(readFileSync(path.join(import.meta.dirname, "../../../vercel.json"), "utf8")).crons ??
    []) as Array<{ path: string; schedule: string }>;

  it("runs the outbox sweep every minute", () => {
    expect(crons).toContainEqual({ path: `/api/cron/${SWEEP_CRON}`, schedule: "* * * * *" });
  });

  it("has exactly one cron per registered schedule, at the schedule's period", () => {
    // Only schedules registered through lib/domains/jobs.ts (this file defines none that succeed).
    const expected = allSchedules().map((s) => ({
      path: `/api/cron/${s.name}`,
      schedule: cronExpression(s.everySeconds),
    }));
    for (const entry of expected) {
      expect(crons, `add to vercel.json "crons": ${JSON.stringify(entry)}`).toContainEqual(entry);
    }
    const known = new Set([`/api/cron/${SWEEP_CRON}`, ...expected.map((e) => e.path)]);
    for (const entry of crons)
      expect(known.has(entry.path), `vercel.json cron ${entry.path} names no schedule`).toBe(true);
    expect(new Set(crons.map((c) => c.path)).size).toBe(crons.length);
  });
});
