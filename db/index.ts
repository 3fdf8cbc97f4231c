// The one Kysely instance: PGlite when DATABASE_URL is unset, else `pg` (or Neon's Pool) over the URL.
import { Kysely, PostgresDialect, type PostgresPool } from "kysely";
import pg from "pg";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { config } from "../lib/core/config";
import type { DB } from "./types";
import { openPglite, PglitePool } from "./pglite";
import { remember } from "../lib/core/remember";

// int8 counts and ids fit a JS number; numeric (wei) stays a decimal string; timestamps are Dates.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => v);

export type Database = Kysely<DB>;

type ClosablePool = PostgresPool & { end(): Promise<void> };
type Holder = { db?: Database; pool?: ClosablePool; pglite?: PglitePool; ready?: Promise<ClosablePool> };
const holder = remember("db", (): Holder => ({}));

/** Where a running service publishes its embedded database, so CLIs can reach it while it runs. */
export function embeddedServerFile(): string {
  return path.join(config().DATA_DIR, "embedded-server.json");
}

function runningEmbeddedServer(): { port: number } | null {
  const file = embeddedServerFile();
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, "utf8")) as { pid: number; port: number };
    if (info.pid === process.pid) return null;
    process.kill(info.pid, 0); // throws when the process is gone
    return { port: info.port };
  } catch {
    return null;
  }
}

function pgPool(connectionString: string, max: number) {
  const cfg = config();
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10_000,
    statement_timeout: cfg.STATEMENT_TIMEOUT_MS,
  });
  // A connection dropped by the server (restart, failover, network cut) emits 'error' on its client even while a
  // query is running, and on the pool when idle: unheard, either crashes the process. The query itself still fails
  // (→ 503) and the pool discards the client, so listening is all that is needed.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

async function neonPool(connectionString: string, max: number) {
  const neon = await import("@neondatabase/serverless");
  const { default: ws } = await import("ws");
  neon.neonConfig.webSocketConstructor = ws;
  return new neon.Pool({ connectionString, max }) as unknown as ClosablePool;
}

async function createPool(): Promise<ClosablePool> {
  const cfg = config();
  if (cfg.DATABASE_URL) {
    if (cfg.DATABASE_DRIVER === "neon") return neonPool(cfg.DATABASE_URL, cfg.DATABASE_POOL_MAX);
    const pool = pgPool(cfg.DATABASE_URL, cfg.DATABASE_POOL_MAX);
    if (cfg.embedded === false && process.env.VERCEL) {
      const { attachDatabasePool } = await import("@vercel/functions");
      attachDatabasePool(pool);
    }
    return pool;
  }
  const server = runningEmbeddedServer();
  // A few connections, not one: the server runs one unit of work (statement sequence or transaction) at a
  // time anyway, and a command that holds one connection while querying through db() must not deadlock.
  if (server)
    return pgPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, Math.min(4, cfg.DATABASE_POOL_MAX));
  holder.pglite = new PglitePool(await openPglite(path.resolve(cfg.DATA_DIR, "pg")));
  return holder.pglite as unknown as ClosablePool;
}

/**
 * The database. The Kysely object is cheap; its pool is opened on the first query, never at import
 * (`next build` imports every route module).
 */
export function db(): Database {
  holder.db ??= new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: async () => {
        holder.ready ??= createPool().then((pool) => (holder.pool = pool));
        return holder.ready;
      },
    }),
  });
  return holder.db;
}

/** The embedded PGlite of this process, when this process owns it. */
export function ownedPglite(): PglitePool | undefined {
  return holder.pglite;
}

export async function closeDb(): Promise<void> {
  const db = holder.db;
  holder.ready = undefined;
  holder.db = undefined;
  holder.pglite = undefined;
  holder.pool = undefined;
  if (db) await db.destroy();
}
