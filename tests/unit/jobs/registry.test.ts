// The job list is explicit: lib/domains/jobs.ts builds it from each domain's set and hands it to whoever runs jobs.
// Nothing registers itself on import, every job a domain defines is listed, and no two share a name.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { domainJobSets, jobs } from "@/lib/domains/jobs";
import { defineJob } from "@/lib/platform/jobs/define";
import { jobRegistry } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";

const root = path.resolve(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const files = [...["app", "lib", "db", "dev", "tests"].flatMap(sources), "instrumentation.ts"];

describe("the job list", () => {
  it("is imported by name: no module imports a jobs module for its side effects", () => {
    const bare =
      /^\s*import\s+["'][^"']*\/jobs(\/[^"']*)?["']|^\s*(await\s+)?import\(["'][^"']*\/jobs(\/[^"']*)?["']\);/m;
    expect(files.filter((file) => bare.test(read(file)))).toEqual([]);
  });

  it("lists every job and schedule a domain defines, the very object it exports", async () => {
    const defining = sources("lib/domains").filter((file) => /\bdefine(Job|Schedule)\(/.test(read(file)));
    expect(defining.length).toBeGreaterThan(5);
    for (const file of defining) {
      const exported = Object.values(await import(/* @vite-ignore */ path.join(root, file))) as unknown[];
      for (const value of exported) {
        if (!value || typeof value !== "object" || !("name" in value)) continue;
        const name = String(value.name);
        if ("handle" in value) expect(jobs.jobs.get(name), `${file}: job ${name}`).toBe(value);
        if ("everySeconds" in value) expect(jobs.schedules.get(name), `${file}: schedule ${name}`).toBe(value);
      }
    }
  });

  it("holds each name once: the sets' jobs, schedules and prunes add up to the list", () => {
    const count = (key: "jobs" | "schedules" | "retentions") =>
      domainJobSets.reduce((n, set) => n + (set[key]?.length ?? 0), 1); // +1: the platform's jobs-prune
    expect(jobs.jobs.size).toBe(count("jobs"));
    expect(jobs.schedules.size).toBe(count("schedules"));
    expect(jobs.retentions.length).toBe(count("retentions") - 1);
  });

  it("refuses two jobs or schedules of one name, and a schedule whose job it does not list", () => {
    const job = defineJob({ name: "test-registry", schema: z.object({}), handle: async () => {} });
    const twin = defineJob({ name: "test-registry", schema: z.object({}), handle: async () => {} });
    const schedule = defineSchedule({ name: "test-registry", everySeconds: 60, job, payload: {} });
    expect(() => jobRegistry([{ jobs: [job] }, { jobs: [twin] }])).toThrow(/two jobs named test-registry/);
    expect(() => jobRegistry([{ jobs: [job], schedules: [schedule, schedule] }])).toThrow(/two schedules/);
    expect(() => jobRegistry([{ jobs: [twin], schedules: [schedule] }])).toThrow(/does not list/);
    expect(jobRegistry([jobs, { jobs: [job], schedules: [schedule] }]).jobs.get("test-registry")).toBe(job);
  });
});
