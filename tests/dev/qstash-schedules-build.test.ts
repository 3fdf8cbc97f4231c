// `npm run build` ends with `qstash-schedules.ts --build`: a Vercel production build reconciles the production
// host's QStash schedules itself (no manual step), and every other build (a preview, a laptop, CI, no token)
// says why it skips and sends nothing. Against the local QStash stand-in.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { qstashTargets } from "@/lib/platform/jobs/schedule";
import { parseCli } from "@/dev/cli/args";
import {
  QSTASH_SCHEDULES_CLI,
  qstashSchedulesCommand,
  scheduleIdOf,
  vercelCrons,
} from "@/dev/cli/qstash-schedules-command";
import { type FakeQStash, startFakeQStash } from "@/tests/helpers/qstash";
import { jobs } from "@/lib/domains/jobs";

const HOST = "tls-prod.example.test";
const SECRET = "cron-secret-0123456789";
const VARIABLES = [
  "VERCEL",
  "VERCEL_ENV",
  "VERCEL_URL",
  "VERCEL_PROJECT_PRODUCTION_URL",
  "CRON_SECRET",
  "PUBLIC_BASE_URL",
  "QSTASH_URL",
  "QSTASH_TOKEN",
  "QSTASH_CURRENT_SIGNING_KEY",
  "QSTASH_NEXT_SIGNING_KEY",
];
let qstash: FakeQStash;
let printed: string[];

const build = () => qstashSchedulesCommand(parseCli(QSTASH_SCHEDULES_CLI, ["--build"])!);
const writes = () => qstash.server.requests.filter((r) => r.method !== "GET").length;

/** A Vercel build's environment: `env` is production or preview; the token is the stand-in's unless `token` is false. */
function vercelBuild(env: "production" | "preview", token = true) {
  if (token) qstash.useInService();
  Object.assign(process.env, {
    VERCEL: "1",
    VERCEL_ENV: env,
    VERCEL_URL: "tls-git-abc123.example.test",
    VERCEL_PROJECT_PRODUCTION_URL: HOST,
    CRON_SECRET: SECRET,
  });
  resetConfig();
}

beforeAll(async () => {
  qstash = await startFakeQStash();
});

function clearEnvironment() {
  for (const name of VARIABLES) delete process.env[name];
  resetConfig();
}

afterEach(() => {
  vi.restoreAllMocks();
  qstash.schedules.clear();
  clearEnvironment();
});

afterAll(() => qstash.close());

describe("npm run build's schedules step", () => {
  it("is the step after next build", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8"));
    expect(scripts.build).toMatch(/&& next build && tsx dev\/cli\/qstash-schedules\.ts --build$/);
  });

  it("on a Vercel production build, makes the production host's schedules what the code plans", async () => {
    vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
    printed = [];
    vercelBuild("production");
    // A schedule of a path the code no longer has is deleted on the next build.
    const stale = scheduleIdOf(`https://${HOST}`, "old-job");
    qstash.schedules.set(stale, {
      scheduleId: stale,
      cron: "* * * * *",
      destination: `https://${HOST}/api/cron/old-job`,
      method: "GET",
      header: {},
      retries: 2,
      createdAt: 0,
      isPaused: false,
    });
    const changes = await build();
    const planned = qstashTargets(jobs, vercelCrons());
    expect(changes.filter((c) => c.action === "create")).toHaveLength(planned.length);
    expect(changes.filter((c) => c.action === "delete").map((c) => c.scheduleId)).toEqual([stale]);
    expect([...qstash.schedules.values()].map((s) => s.destination).sort()).toEqual(
      planned.map((t) => `https://${HOST}${t.path}`).sort(),
    );
    expect(printed.at(-1)).toMatch(new RegExp(`^${planned.length} created, 0 updated, 1 deleted on `));
    // The next build overwrites the same schedules.
    expect((await build()).every((c) => c.action === "update")).toBe(true);
  });

  it("skips, saying why and sending nothing, on a preview, off Vercel, or without a token", async () => {
    const lines = vi.spyOn(console, "log").mockReturnValue();
    const before = writes();
    vercelBuild("preview");
    expect(await build()).toEqual([]);
    clearEnvironment();
    qstash.useInService();
    process.env.CRON_SECRET = SECRET;
    process.env.PUBLIC_BASE_URL = `https://${HOST}`;
    resetConfig();
    expect(await build()).toEqual([]);
    clearEnvironment();
    vercelBuild("production", false);
    expect(await build()).toEqual([]);
    expect(lines.mock.calls.map(([line]) => line)).toEqual([
      "qstash schedules skipped: not a Vercel production build (elsewhere: npm run qstash:schedules)",
      "qstash schedules skipped: not a Vercel production build (elsewhere: npm run qstash:schedules)",
      "qstash schedules skipped: QSTASH_TOKEN is unset",
    ]);
    expect(writes()).toBe(before);
    expect(qstash.schedules.size).toBe(0);
  });

  it("takes no other option", async () => {
    await expect(qstashSchedulesCommand(parseCli(QSTASH_SCHEDULES_CLI, ["--build", "--dry-run"])!)).rejects.toThrow(
      "--build takes no other option",
    );
  });
});
