// Production configuration: PUBLIC_BASE_URL falls back to Vercel's own URL variables, no polling worker runs on a
// Vercel deployment, and a production start needs some variables (refused without them) and warns about others.
import { afterEach, describe, expect, it } from "vitest";
import { type Config, parseConfig, resetConfig, runsJobWorker } from "@/lib/core/config";
import { productionRequirements } from "@/lib/core/config-production";
import { workerEnabled } from "@/lib/platform/jobs/worker";

const cfg = (vars: Record<string, string>): Config => parseConfig(vars as NodeJS.ProcessEnv);
const SECRET = "s".repeat(32);
const DATABASE_URL = "postgres://u:p@ep-quiet-sky-123.eu-central-1.aws.neon.tech/db";
const VERCEL_PRODUCTION = {
  VERCEL: "1",
  VERCEL_ENV: "production",
  VERCEL_URL: "tls-git-abc123-team.vercel.app",
  VERCEL_PROJECT_PRODUCTION_URL: "api.tls.example",
};
/** Everything a Vercel production deployment needs. */
const COMPLETE = {
  NODE_ENV: "production",
  ...VERCEL_PRODUCTION,
  DATABASE_URL,
  QSTASH_TOKEN: "qstash-token",
  QSTASH_CURRENT_SIGNING_KEY: "sig_current",
  QSTASH_NEXT_SIGNING_KEY: "sig_next",
  CRON_SECRET: SECRET,
  SESSION_SECRET: SECRET,
};
const without = (vars: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(vars).filter(([name]) => !names.includes(name)));
const named = (list: { variable: string }[]) => list.map((r) => r.variable);

describe("PUBLIC_BASE_URL", () => {
  it("is the production host on a Vercel production deployment, and the deployment's own host on a preview", () => {
    expect(cfg(VERCEL_PRODUCTION).PUBLIC_BASE_URL).toBe("https://api.tls.example");
    expect(cfg({ ...VERCEL_PRODUCTION, VERCEL_ENV: "preview" }).PUBLIC_BASE_URL).toBe(
      "https://tls-git-abc123-team.vercel.app",
    );
    expect(cfg(without(VERCEL_PRODUCTION, "VERCEL_PROJECT_PRODUCTION_URL")).PUBLIC_BASE_URL).toBe(
      "https://tls-git-abc123-team.vercel.app",
    );
  });

  it("is the variable itself when set, and has no fallback off Vercel or in `vercel env pull`'s development values", () => {
    expect(cfg({ ...VERCEL_PRODUCTION, PUBLIC_BASE_URL: "https://own.example" }).PUBLIC_BASE_URL).toBe(
      "https://own.example",
    );
    expect(cfg({}).PUBLIC_BASE_URL).toBeUndefined();
    const pulled = { VERCEL: "1", VERCEL_ENV: "development", VERCEL_URL: "", VERCEL_PROJECT_PRODUCTION_URL: "" };
    expect(cfg(pulled)).toMatchObject({ PUBLIC_BASE_URL: undefined, serverless: false });
  });

  it("refuses a Vercel URL variable that is not a host name, naming it", () => {
    expect(() => cfg({ ...VERCEL_PRODUCTION, VERCEL_URL: "https://x.vercel.app" })).toThrow(
      "VERCEL_URL: a host name without a scheme",
    );
    expect(() => cfg({ VERCEL_ENV: "staging" })).toThrow(/VERCEL_ENV: /);
  });
});

describe("the job worker", () => {
  afterEach(() => {
    for (const name of ["VERCEL", "VERCEL_ENV", "JOB_WORKER"]) delete process.env[name];
    resetConfig();
  });

  it("never runs on a Vercel deployment, even with JOB_WORKER=true; elsewhere JOB_WORKER or the lack of QStash decides", () => {
    expect(runsJobWorker(cfg(VERCEL_PRODUCTION))).toBe(false);
    expect(runsJobWorker(cfg({ ...VERCEL_PRODUCTION, VERCEL_ENV: "preview", JOB_WORKER: "true" }))).toBe(false);
    expect(runsJobWorker(cfg({ VERCEL: "1", VERCEL_ENV: "development" }))).toBe(true);
    expect(runsJobWorker(cfg({}))).toBe(true);
    expect(runsJobWorker(cfg({ QSTASH_TOKEN: "t" }))).toBe(false);
    expect(runsJobWorker(cfg({ QSTASH_TOKEN: "t", JOB_WORKER: "true" }))).toBe(true);
    process.env.VERCEL = "1";
    process.env.VERCEL_ENV = "production";
    process.env.JOB_WORKER = "true";
    resetConfig();
    expect(workerEnabled()).toBe(false);
  });
});

describe("productionRequirements", () => {
  it("asks nothing outside production, nor of `npm start` on the embedded default", () => {
    expect(productionRequirements(cfg(without(COMPLETE, "NODE_ENV", "QSTASH_TOKEN")))).toEqual({
      errors: [],
      warnings: [],
    });
    expect(productionRequirements(cfg({ NODE_ENV: "production" }))).toEqual({ errors: [], warnings: [] });
  });

  it("is satisfied by a complete Vercel production deployment", () => {
    expect(productionRequirements(cfg(COMPLETE))).toEqual({ errors: [], warnings: [] });
  });

  it("on Vercel in production: refuses without the database, QStash (token and both keys), CRON_SECRET", () => {
    const { errors } = productionRequirements(cfg({ NODE_ENV: "production", ...VERCEL_PRODUCTION }));
    expect(named(errors)).toEqual(["DATABASE_URL", "QSTASH_TOKEN", "CRON_SECRET"]);
    const keys = productionRequirements(
      cfg(without(COMPLETE, "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY")),
    );
    expect(named(keys.errors)).toEqual(["QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"]);
    expect(named(productionRequirements(cfg({ ...COMPLETE, JOB_WORKER: "true" })).errors)).toEqual(["JOB_WORKER"]);
    for (const { reason } of errors) expect(reason.length).toBeGreaterThan(30);
  });

  it("on a Vercel preview: QStash missing is a warning (its jobs stay queued), and no cron runs there to need a secret", () => {
    const preview = { ...without(COMPLETE, "QSTASH_TOKEN", "CRON_SECRET"), VERCEL_ENV: "preview" };
    expect(productionRequirements(cfg(preview))).toEqual({
      errors: [],
      warnings: [{ variable: "QSTASH_TOKEN", reason: expect.stringContaining("stay queued") }],
    });
  });

  it("off Vercel: the worker runs jobs and schedules, so QStash and CRON_SECRET are optional", () => {
    const selfHosted = { NODE_ENV: "production", DATABASE_URL, SESSION_SECRET: SECRET };
    expect(productionRequirements(cfg(selfHosted))).toEqual({ errors: [], warnings: [] });
    expect(named(productionRequirements(cfg({ ...selfHosted, JOB_WORKER: "false" })).warnings)).toEqual([
      "QSTASH_TOKEN",
    ]);
  });

  it("off Vercel with QStash: PUBLIC_BASE_URL (no fallback there) and, when no worker enqueues schedules, CRON_SECRET", () => {
    const withQStash = {
      NODE_ENV: "production",
      DATABASE_URL,
      SESSION_SECRET: SECRET,
      QSTASH_TOKEN: "t",
      QSTASH_CURRENT_SIGNING_KEY: "a",
      QSTASH_NEXT_SIGNING_KEY: "b",
    };
    expect(named(productionRequirements(cfg(withQStash)).errors)).toEqual(["PUBLIC_BASE_URL", "CRON_SECRET"]);
    expect(
      named(
        productionRequirements(cfg({ ...withQStash, PUBLIC_BASE_URL: "https://a.example", JOB_WORKER: "true" })).errors,
      ),
    ).toEqual([]);
  });

  it("SESSION_SECRET: required with ADMIN_SECRET (only exchanged for a session), else a warning", () => {
    const noSessions = without(COMPLETE, "SESSION_SECRET");
    expect(productionRequirements(cfg(noSessions))).toEqual({
      errors: [],
      warnings: [{ variable: "SESSION_SECRET", reason: expect.stringContaining("admin sessions are off") }],
    });
    expect(named(productionRequirements(cfg({ ...noSessions, ADMIN_SECRET: SECRET })).errors)).toEqual([
      "SESSION_SECRET",
    ]);
  });
});

describe("SEARCH_POOL_MAX", () => {
  const pooled = "postgres://u:p@ep-cool-name-123-pooler.us-east-2.aws.neon.tech/neondb?sslmode=require";
  const direct = "postgres://u:p@ep-cool-name-123.us-east-2.aws.neon.tech/neondb?sslmode=require";

  it("is refused above 0 with Neon's pooled host, whose transaction pooling would drop the search sessions' settings", () => {
    expect(() => cfg({ DATABASE_URL: pooled, SEARCH_POOL_MAX: "10" })).toThrow(
      /SEARCH_POOL_MAX: must be 0 when DATABASE_URL is Neon's pooled host/,
    );
    expect(cfg({ DATABASE_URL: pooled }).SEARCH_POOL_MAX).toBe(0);
    expect(cfg({ DATABASE_URL: direct, SEARCH_POOL_MAX: "10" }).SEARCH_POOL_MAX).toBe(10);
  });
});
