// Migrates one template database per run; each test file then gets its own copy (see setup.ts). With
// TEST_DATABASE_DRIVER=neon it also starts the WebSocket proxy the neon driver reaches the server through.
import type { TestProject } from "vitest/node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { openPglite, PglitePool } from "@/db/pglite";
import { migrateToLatest } from "@/db/migrate";
import { type NeonProxy, startNeonProxy } from "./neon-proxy";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
    /** The NEON_WS_PROXY of a TEST_DATABASE_DRIVER=neon run, else "". */
    neonProxy: string;
    runId: string;
  }
}

/**
 * One proxy per vitest process: every project runs this setup (the root project too), each with its own copy of
 * this module, so the proxy is shared through the process and closed by the last teardown.
 */
const SHARED = Symbol.for("tls-test-neon-proxy");
type SharedProxy = { proxy: Promise<NeonProxy>; users: number };
const shared = globalThis as { [SHARED]?: SharedProxy };

function acquireNeonProxy(target: { host: string; port: number }): Promise<NeonProxy> {
  shared[SHARED] ??= { proxy: startNeonProxy({ target }), users: 0 };
  shared[SHARED].users++;
  return shared[SHARED].proxy;
}

async function releaseNeonProxy(): Promise<void> {
  const entry = shared[SHARED];
  if (!entry || --entry.users > 0) return;
  delete shared[SHARED];
  const proxy = await entry.proxy;
  await proxy.close();
  // A neon run whose queries all went around the proxy tested the pg driver under another name.
  if (proxy.total === 0) throw new Error("TEST_DATABASE_DRIVER=neon: no connection went through the proxy");
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const dir = mkdtempSync(path.join(tmpdir(), "tls-test-"));
  project.provide("runId", runId);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const driver = process.env.TEST_DATABASE_DRIVER ?? "pg";
  if (driver !== "pg" && driver !== "neon") throw new Error(`TEST_DATABASE_DRIVER must be pg or neon, not ${driver}`);
  if (driver === "neon" && !adminUrl) throw new Error("TEST_DATABASE_DRIVER=neon needs TEST_DATABASE_URL");
  project.provide("neonProxy", "");
  if (adminUrl) {
    const template = `tls_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const db = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }),
    });
    await migrateToLatest(db);
    await db.destroy();
    project.provide("postgresTemplate", template);
    project.provide("pgliteTemplate", "");
    if (driver === "neon") {
      const server = new URL(adminUrl);
      const proxy = await acquireNeonProxy({ host: server.hostname, port: Number(server.port || 5432) });
      project.provide("neonProxy", proxy.url);
    }
    return async () => {
      if (driver === "neon") await releaseNeonProxy();
      // Drop this run's databases: the template and every per-file copy.
      const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`tls_%${runId}%`]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  // A data directory, closed: each file copies it (setup.ts), which is much cheaper than having PGlite unpack a
  // dump, and the copy then opens once.
  const template = path.join(dir, "template");
  const pglite = await openPglite(template);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new PglitePool(pglite) as any }) });
  await migrateToLatest(db);
  await db.destroy(); // closes PGlite
  project.provide("pgliteTemplate", template);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}
