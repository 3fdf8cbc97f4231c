// Per test file: a private copy of the migrated template, a private DATA_DIR, quiet logs.
import { afterAll, beforeAll, inject } from "vitest";
import { constants, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { closeDb } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { resetKv } from "@/lib/platform/kv";

const dataDir = mkdtempSync(path.join(tmpdir(), "tls-file-"));
process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL ??= "silent";
(process.env as Record<string, string | undefined>).NODE_ENV = "test";
for (const name of [
  "KV_REST_API_URL",
  "KV_REST_API_TOKEN",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "QSTASH_TOKEN",
  "DATABASE_URL",
  "DATABASE_DRIVER",
  "NEON_WS_PROXY",
]) {
  delete process.env[name];
}

beforeAll(async () => {
  const pgTemplate = inject("postgresTemplate");
  if (pgTemplate) {
    const name = `tls_${inject("runId")}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${pgTemplate}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
    const neonProxy = inject("neonProxy");
    if (neonProxy) {
      process.env.DATABASE_DRIVER = "neon";
      process.env.NEON_WS_PROXY = neonProxy;
    }
  } else {
    // The template's closed data directory, copied (a copy-on-write clone where the file system has them).
    cpSync(inject("pgliteTemplate"), path.join(dataDir, "pg"), { recursive: true, mode: constants.COPYFILE_FICLONE });
  }
  resetConfig();
  resetKv();
});

afterAll(async () => {
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});
