// The database: PGlite when DATABASE_URL is unset, else `pg` (or Neon's Pool) over the URL; over a URL, token searches
// may have a pool of their own (searchPoolFor).
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import type { PoolClient as NeonPoolClient } from "@neondatabase/serverless";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { config } from "../lib/core/config";
import type { DB } from "./types";
import { openPglite, PglitePool } from "./pglite";
import { remember } from "../lib/core/remember";
import { telemetryOn } from "../lib/core/telemetry";
import { logStatement } from "./telemetry";

// int8 counts and ids fit a JS number; numeric (wei) stays a decimal string; timestamps are Dates.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => v);

// A function that reads or writes takes the executor as `db: Database`: the pool or a transaction (Transaction<DB>
// extends Kysely<DB>) alike. Two exceptions: `trx: Transaction<DB>` where it needs a transaction (a lock, a write
// beside a checkpoint), and `executor: Database = db()` where it defaults to the pool (a `db` could not default to
// the db() it shadows). tests/unit/core/one-way.test.ts holds it.
export type Database = Kysely<DB>;

type ClosablePool = PostgresPool & { end(): Promise<void> };
type Holder = {
  db?: Database;
  pool?: ClosablePool;
  pglite?: PglitePool;
  ready?: Promise<ClosablePool>;
  /** The search pool, and its sessions' statement timeout. */
  search?: { db: Database; timeoutMs: number };
};
const holder = remember("db", (): Holder => ({}));

/**
 * What a token search's statements run under besides its statement timeout (lib/domains/tokens/budget.ts): no JIT
 * and no parallel plan. JIT costs more than it saves on index walks of a few rows, and the market sorts rely on a
 * serial Append to return their two parts in order.
 */
export const SEARCH_PLANNER_SETTINGS = { jit: "off", max_parallel_workers_per_gather: "0" } as const;

/** How a pool's sessions start: their statement timeout, and settings passed as the startup `options`. */
type Session = { statement_timeout: number; options?: string };

/**
 * The session of a search pool's connection, as node-postgres sends it at startup: SEARCH_TIMEOUT_MS as its
 * statement timeout, read-only transactions, SEARCH_PLANNER_SETTINGS.
 */
export function searchSession(): Session {
  const settings = { ...SEARCH_PLANNER_SETTINGS, default_transaction_read_only: "on" };
  return {
    statement_timeout: config().SEARCH_TIMEOUT_MS,
    options: Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(" "),
  };
}

/**
 * The search pool's URL and session. node-postgres lets a connection string's own `options` and `statement_timeout`
 * replace what the pool is given, so they come out of the URL: its options go before the search's (a `-c` given twice
 * keeps the last), and the search's timeout is the one kept.
 */
function searchConnection(databaseUrl: string): { url: string; session: Session } {
  const url = new URL(databaseUrl);
  const own = url.searchParams.get("options");
  url.searchParams.delete("options");
  url.searchParams.delete("statement_timeout");
  const session = searchSession();
  return { url: url.toString(), session: { ...session, options: [own, session.options].filter(Boolean).join(" ") } };
}

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

/** The main pool's sessions: STATEMENT_TIMEOUT_MS, the server's own settings. */
const mainSession = (): Session => ({ statement_timeout: config().STATEMENT_TIMEOUT_MS });

function pgPool(connectionString: string, max: number, session: Session) {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10_000,
    ...session,
  });
  // A connection dropped by the server (restart, failover, network cut) emits 'error' on its client even while a
  // query is running, and on the pool when idle: unheard, either crashes the process. The query itself still fails
  // (→ 503) and the pool discards the client, so listening is all that is needed.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/**
 * Neon's Pool: node-postgres over a WebSocket per connection. It bundles its own copy of node-postgres, so
 * nothing set on `pg` above reaches it: the type parsers, the timeouts and the error listeners are set again.
 */
async function neonPool(connectionString: string, max: number, session: Session) {
  const cfg = config();
  const neon = await import("@neondatabase/serverless");
  const { default: ws } = await import("ws");
  neon.types.setTypeParser(20, (v) => Number(v));
  neon.types.setTypeParser(1700, (v) => v);
  const settings = neon.neonConfig;
  settings.webSocketConstructor = ws;
  // neonConfig is process-wide: a pool opened without a proxy after one with (tests) must get Neon's defaults back.
  const proxy = cfg.NEON_WS_PROXY ? new URL(cfg.NEON_WS_PROXY) : null;
  settings.wsProxy = proxy
    ? (host, port) => `${proxy.host}${proxy.pathname}?address=${host}:${port}`
    : settings.defaults.wsProxy;
  settings.useSecureWebSocket = proxy ? proxy.protocol === "wss:" : settings.defaults.useSecureWebSocket;
  // Pipelining sends the password before the server asks for one, which only cleartext password auth expects
  // (Neon's own proxy); a plain Postgres behind a local proxy (trust, SCRAM) rejects the early message.
  settings.pipelineConnect = proxy ? false : settings.defaults.pipelineConnect;
  const pool = new neon.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10_000,
    ...session,
  });
  // As for pgPool: a WebSocket closed under a connection (Neon suspending the compute, a proxy restart) emits
  // 'error' on its client or on the pool, and unheard it crashes the process.
  pool.on("error", () => {});
  pool.on("connect", (client: NeonPoolClient) => client.on("error", () => {}));
  return withSocketErrors(pool as unknown as ClosablePool);
}

/**
 * The neon driver fails with the WebSocket's ErrorEvent (not an Error, no code) when its socket cannot open or
 * breaks: refused, DNS, the proxy answering the upgrade with an HTTP error. Made an Error with a connection
 * SQLSTATE (08001 unable to connect, 08006 connection failure), the route wrapper answers it 503 (database
 * unavailable, Retry-After) as it does the pg driver's ECONNREFUSED, instead of 500.
 */
function socketError(error: unknown, code: "08001" | "08006"): unknown {
  if (error instanceof Error) return error;
  const event = error as { message?: unknown; error?: unknown } | null;
  const message = typeof event?.message === "string" && event.message ? event.message : "WebSocket error";
  return Object.assign(new Error(`database connection failed: ${message}`, { cause: event?.error ?? error }), {
    code,
  });
}

/** The connection is gone: the server ended the session (57P01 admin shutdown, 57P02/57P03) or the socket broke. */
function sessionLost(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && /^(08|57P0)/.test(code)) return true;
  return /Connection terminated/i.test((error as { message?: string })?.message ?? "");
}

/**
 * Kysely releases a connection without saying whether it failed, and the server's FATAL (a terminated backend,
 * Neon suspending the compute) arrives before the connection's close (over a WebSocket, a close handshake later):
 * the pool would hand the dead connection to the next query, which fails too (2 times in 5 here without this).
 * A connection whose session is lost is destroyed on release instead.
 */
function withSocketErrors(pool: ClosablePool): ClosablePool {
  return {
    async connect() {
      const client = (await pool.connect().catch((error: unknown) => {
        throw socketError(error, "08001");
      })) as PostgresPoolClient & { release(destroy?: boolean): void };
      let lost = false;
      const query = (sql: string, parameters: ReadonlyArray<unknown>) =>
        client.query(sql, parameters).catch((error: unknown) => {
          const failure = socketError(error, "08006");
          lost ||= sessionLost(failure);
          throw failure;
        });
      return { query: query as PostgresPoolClient["query"], release: () => client.release(lost) };
    },
    end: () => pool.end(),
  };
}

/** A pool over DATABASE_URL with the configured driver. */
async function urlPool(url: string, max: number, session: Session): Promise<ClosablePool> {
  const cfg = config();
  if (cfg.DATABASE_DRIVER === "neon") return neonPool(url, max, session);
  const pool = pgPool(url, max, session);
  if (cfg.embedded === false && process.env.VERCEL) {
    const { attachDatabasePool } = await import("@vercel/functions");
    attachDatabasePool(pool);
  }
  return pool;
}

async function createPool(): Promise<ClosablePool> {
  const cfg = config();
  if (cfg.DATABASE_URL) return urlPool(cfg.DATABASE_URL, cfg.DATABASE_POOL_MAX, mainSession());
  const server = runningEmbeddedServer();
  // A few connections, not one: the server runs one unit of work (statement sequence or transaction) at a
  // time anyway, and a command that holds one connection while querying through db() must not deadlock.
  if (server)
    return pgPool(
      `postgres://postgres@127.0.0.1:${server.port}/postgres`,
      Math.min(4, cfg.DATABASE_POOL_MAX),
      mainSession(),
    );
  holder.pglite = new PglitePool(await openPglite(path.resolve(cfg.DATA_DIR, "pg")));
  return holder.pglite as unknown as ClosablePool;
}

/**
 * A Kysely whose pool is made on its first query, never at import (`next build` imports every route module). With
 * telemetry on, each statement is recorded (db/telemetry.ts).
 */
function lazyKysely(create: () => Promise<ClosablePool>): Database {
  let ready: Promise<ClosablePool> | undefined;
  const dialect = new PostgresDialect({ pool: () => (ready ??= create()) });
  return new Kysely<DB>({ dialect, log: telemetryOn() ? logStatement : undefined });
}

/** The database. */
export function db(): Database {
  holder.db ??= lazyKysely(() => {
    holder.ready ??= createPool().then((pool) => (holder.pool = pool));
    return holder.ready;
  });
  return holder.db;
}

/**
 * The search pool (SEARCH_POOL_MAX connections over DATABASE_URL, sessions as searchSession() says) for a search whose
 * budget is `budgetMs`, or null: SEARCH_POOL_MAX 0, the embedded database (one session, whose settings a search must not
 * change), or a budget other than its sessions' statement timeout (tests give budgets of their own).
 */
export function searchPoolFor(budgetMs: number): Database | null {
  const cfg = config();
  if (!cfg.DATABASE_URL || cfg.SEARCH_POOL_MAX === 0) return null;
  if (!holder.search) {
    const { url, session } = searchConnection(cfg.DATABASE_URL);
    const db = lazyKysely(() => urlPool(url, cfg.SEARCH_POOL_MAX, session));
    holder.search = { db, timeoutMs: session.statement_timeout };
  }
  return holder.search.timeoutMs === budgetMs ? holder.search.db : null;
}

/** What stops a LISTEN: ends its session. */
export type Unlisten = () => Promise<void>;

/**
 * Calls `onNotify` at each NOTIFY on `channel`, from a session of its own (PostgreSQL's LISTEN); `onLost` when that
 * session ends. Null where no session lasts to listen on: Neon's driver (its pooler drops LISTEN) and a CLI that
 * reaches another process's embedded database. Callers poll as well: a notification is a hint to read sooner.
 */
export async function listen(channel: string, onNotify: () => void, onLost: () => void): Promise<Unlisten | null> {
  const cfg = config();
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  if (cfg.DATABASE_URL) {
    if (cfg.DATABASE_DRIVER === "neon") return null;
    const client = new pg.Client({
      connectionString: cfg.DATABASE_URL,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    let ended = false;
    const lost = () => {
      if (!ended) onLost();
      ended = true;
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (n) => n.channel === channel && onNotify());
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      ended = true;
      await client.end().catch(() => {});
      throw error;
    }
    return async () => {
      ended = true;
      await client.end().catch(() => {});
    };
  }
  await db().selectNoFrom(sql`1`.as("one")).execute(); // opens the pool, and PGlite with it
  const pool = holder.pglite;
  if (!pool) return null;
  // Through the gate: a LISTEN inside another request's open transaction would end with it.
  const session = await pool.connect();
  const stop = await pool.pglite.listen(channel, () => onNotify()).finally(() => session.release());
  return async () => {
    const again = await pool.connect();
    await stop()
      .catch(() => {})
      .finally(() => again.release());
  };
}

/** The embedded PGlite of this process, when this process owns it. */
export function ownedPglite(): PglitePool | undefined {
  return holder.pglite;
}

export async function closeDb(): Promise<void> {
  const { db, search } = holder;
  holder.ready = undefined;
  holder.db = undefined;
  holder.pglite = undefined;
  holder.pool = undefined;
  holder.search = undefined;
  await Promise.all([db?.destroy(), search?.db.destroy()]);
}
