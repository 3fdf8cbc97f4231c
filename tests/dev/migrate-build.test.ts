// `npm run build`'s first step (dev/cli/migrate.ts --build), run as the build runs it, in its own process: skipped
// with its reason on one line (and no database touched) without DATABASE_URL or with MIGRATE_ON_BUILD=false; on a
// PostgreSQL server it migrates, and a second run, or two runs at once, apply nothing more; on Vercel it fails a
// build whose deployment would refuse to start.
import { afterAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const dataDir = mkdtempSync(path.join(tmpdir(), "tls-build-step-"));
/** A port nothing listens on: a run that tried to connect would fail. */
const UNREACHABLE = "postgres://postgres@127.0.0.1:1/nothing";
const migrationCount = readdirSync(path.join(root, "db/migrations")).filter((f) => /^\d{14}_\w+\.ts$/.test(f)).length;

type Run = { code: number; stdout: string; stderr: string };

/** The step with only the given variables of the ones it reads (the test process's own are left out). */
function buildStep(vars: Record<string, string>): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  for (const name of Object.keys(env))
    if (
      /^(DATABASE_|MIGRATE_ON_BUILD$|NODE_ENV$|VERCEL|QSTASH_|CRON_SECRET$|SESSION_SECRET$|ADMIN_|JOB_WORKER$|PUBLIC_BASE_URL$)/.test(
        name,
      )
    )
      delete env[name];
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [tsx, "dev/cli/migrate.ts", "--build"],
      { cwd: root, env: { ...env, ...vars }, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    ),
  );
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run build", () => {
  it("migrates before next build", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(scripts.build).toMatch(/^tsx dev\/cli\/migrate\.ts --build && next build( &&|$)/);
  });
});

describe("the build step, skipped", () => {
  it("without DATABASE_URL (a local build on the embedded default): says so and opens no database", async () => {
    const run = await buildStep({});
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toBe(
      "migrations skipped: DATABASE_URL is unset (the embedded database is migrated when the service starts)\n",
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("with MIGRATE_ON_BUILD=false: says so without connecting", async () => {
    const run = await buildStep({ DATABASE_URL: UNREACHABLE, MIGRATE_ON_BUILD: "false" });
    expect(run).toMatchObject({ code: 0, stdout: "migrations skipped: MIGRATE_ON_BUILD=false\n" });
  });

  it("refuses a MIGRATE_ON_BUILD that is neither true nor false, and Neon's pooled host", async () => {
    const flag = await buildStep({ DATABASE_URL: UNREACHABLE, MIGRATE_ON_BUILD: "no" });
    expect(flag).toMatchObject({ code: 1, stdout: "" });
    expect(flag.stderr).toContain("MIGRATE_ON_BUILD must be true or false, not no");
    const pooled = await buildStep({
      DATABASE_URL: "postgres://u:p@ep-cold-fog-123-pooler.eu-central-1.aws.neon.tech/db",
    });
    expect(pooled.code).toBe(1);
    expect(pooled.stderr).toContain("set DATABASE_URL_UNPOOLED to the direct connection string");
  });

  it("on a Vercel production build missing what production needs: fails naming each variable, before migrating", async () => {
    const run = await buildStep({
      VERCEL: "1",
      VERCEL_ENV: "production",
      VERCEL_PROJECT_PRODUCTION_URL: "tls.example.com",
      DATABASE_URL: UNREACHABLE,
      MIGRATE_ON_BUILD: "false",
      QSTASH_TOKEN: "token",
      QSTASH_CURRENT_SIGNING_KEY: "sig_current",
    });
    expect(run.code).toBe(1);
    expect(
      run.stderr
        .split("\n")
        .filter((l) => /^ {2}[A-Z_]+: /.test(l))
        .map((l) => l.trim().split(":")[0]),
    ).toEqual(["QSTASH_NEXT_SIGNING_KEY", "CRON_SECRET"]);
    expect(run.stderr).toContain("incomplete environment for production:");
  });
});

// A server of its own: PGlite admits one session, so two runs could not contend for the migrations' lock there.
const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
const serverUp = await reachable(adminUrl);

describe.runIf(serverUp)(`the build step on a PostgreSQL server (${new URL(adminUrl).host})`, () => {
  const created: string[] = [];
  async function freshDatabase(): Promise<string> {
    const name = `tls_build_step_${process.pid}_${created.length}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    created.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
  const applied = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT name FROM kysely_migration ORDER BY name");
    await client.end();
    return rows.map((r) => r.name as string);
  };
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("applies every migration, and a second run applies nothing", async () => {
    const url = await freshDatabase();
    const first = await buildStep({ DATABASE_URL: url });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied: \d{14}_\w+(, \d{14}_\w+)*\n$/);
    expect(first.stdout.split(", ")).toHaveLength(migrationCount);
    const second = await buildStep({ DATABASE_URL: url });
    expect(second).toMatchObject({ code: 0, stdout: "database is up to date\n" });
    expect(await applied(url)).toHaveLength(migrationCount);
  });

  it("lets two builds run at once: one applies, the other waits and finds nothing left", async () => {
    const url = await freshDatabase();
    const runs = await Promise.all([buildStep({ DATABASE_URL: url }), buildStep({ DATABASE_URL: url })]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(runs.map((r) => (r.stdout.startsWith("applied: ") ? "applied" : r.stdout.trim())).sort()).toEqual([
      "applied",
      "database is up to date",
    ]);
    const names = await applied(url);
    expect(new Set(names).size).toBe(migrationCount);
    expect(names).toHaveLength(migrationCount);
  });
});
