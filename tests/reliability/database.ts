// A throwaway database on the PostgreSQL server for one reliability part: created empty (dropped first if a
// crashed run left it), then this process pointed at it (at `host` when the part reaches it through a proxy) and
// migrated. Returns the process's db() and closeDb(), imported only now, after DATABASE_URL is set.
import pg from "pg";

export async function useThrowawayDatabase(baseUrl: string, name: string, host?: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  if (host) url.host = host;
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.LOG_LEVEL = "silent";
  const { resetConfig } = await import("@/lib/core/config");
  resetConfig();
  const { db, closeDb } = await import("@/db");
  const { migrateToLatest } = await import("@/db/migrate");
  await migrateToLatest(db());
  return { db, closeDb, url: url.toString() };
}
