// Migrates one template database per run; each test file then gets its own copy (see setup.ts).
import type { TestProject } from "vitest/node";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { openPglite, PglitePool } from "@/db/pglite";
import { migrateToLatest } from "@/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
    runId: string;
  }
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const dir = mkdtempSync(path.join(tmpdir(), "tls-test-"));
  project.provide("runId", runId);
  const adminUrl = process.env.TEST_DATABASE_URL;
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
    return async () => {
      // Drop this run's databases: the template and every per-file copy.
      const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`tls_%${runId}%`]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const pglite = await openPglite(null);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new PglitePool(pglite) as any }) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir("none");
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.destroy();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}
