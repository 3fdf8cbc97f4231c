// The production driver (DATABASE_DRIVER=neon, @neondatabase/serverless) through a local WebSocket proxy to the
// PostgreSQL server: what db/index.ts sets up for it (type parsers, statement timeout, error listeners, connection
// errors) must hold as on the pg driver. PostgreSQL only (TEST_DATABASE_URL): the proxy needs a server to reach.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { sql } from "kysely";
import { neonConfig } from "@neondatabase/serverless";
import { GET as health } from "@/app/api/health/route";
import { closeDb, db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { toHttpError } from "@/lib/core/errors";
import { withSearchBudget } from "@/lib/domains/tokens/budget";
import { call } from "@/tests/helpers/http";
import { type NeonProxy, startNeonProxy } from "@/tests/helpers/neon-proxy";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const VARIABLES = ["DATABASE_DRIVER", "NEON_WS_PROXY", "STATEMENT_TIMEOUT_MS", "DATABASE_POOL_MAX"] as const;

let proxy: NeonProxy;
let saved: Record<string, string | undefined>;

/** Reopens db() with these variables set on top of the neon driver through `proxy`. */
async function reopen(vars: Partial<Record<(typeof VARIABLES)[number], string>> = {}) {
  await closeDb();
  Object.assign(process.env, { DATABASE_DRIVER: "neon", NEON_WS_PROXY: proxy.url, ...vars });
  resetConfig();
}

/** A session of its own on the same database, beside the driver under test. */
async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const backendPid = async () => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db())).rows[0]!.pid;

describe.skipIf(!onPostgres)("the neon driver through a local WebSocket proxy", () => {
  beforeAll(async () => {
    saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
    const server = new URL(process.env.DATABASE_URL!);
    proxy = await startNeonProxy({ target: { host: server.hostname, port: Number(server.port || 5432) } });
    await reopen({ STATEMENT_TIMEOUT_MS: "1234", DATABASE_POOL_MAX: "2" });
  });

  afterAll(async () => {
    await closeDb();
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfig();
    await proxy?.close();
  });

  it("goes through the proxy, and reads int8 as a number, numeric as a string, timestamptz as a Date", async () => {
    const before = proxy.total;
    const { rows } = await sql<{ big: unknown; count: unknown; wei: unknown; at: unknown }>`
      SELECT 9007199254740991::int8 AS big, (SELECT count(*) FROM jobs) AS count,
             '123456789012345678901234567890.5'::numeric AS wei, now() AS at`.execute(db());
    expect(proxy.total).toBeGreaterThan(before);
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      count: 0,
      wei: "123456789012345678901234567890.5",
      at: expect.any(Date),
    });
    // Pipelining is for Neon's cleartext password exchange; behind a local proxy it is off, and wss follows the URL.
    expect(neonConfig.pipelineConnect).toBe(false);
    expect(neonConfig.useSecureWebSocket).toBe(false);
    const res = await call(health, "/api/health");
    expect(res.status, res.text).toBe(200);
    expect(res.body.backends.database).toBe("neon");
  });

  it("sets STATEMENT_TIMEOUT_MS on every connection: the server cancels a longer statement (57014 → 503)", async () => {
    expect((await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(db())).rows[0]).toEqual({
      statement_timeout: "1234ms",
    });
    const error = await sql`SELECT pg_sleep(3)`.execute(db()).catch((e) => e);
    expect(error.code).toBe("57014");
    expect(toHttpError(error).status).toBe(503);
  });

  it("runs transactions: a rollback leaves nothing, a commit keeps its rows", async () => {
    await sql`CREATE TABLE IF NOT EXISTS neon_probe (n int PRIMARY KEY)`.execute(db());
    const failed = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO neon_probe VALUES (1), (2)`.execute(trx);
        await sql`INSERT INTO neon_probe VALUES (1)`.execute(trx); // duplicate: the transaction fails
      })
      .catch((e) => e);
    expect(failed.code).toBe("23505");
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO neon_probe VALUES (3)`.execute(trx);
      });
    const { rows } = await sql<{ n: number }>`SELECT n FROM neon_probe ORDER BY n`.execute(db());
    expect(rows).toEqual([{ n: 3 }]);
  });

  it("opens the search budget's transaction (several statements in one message): read-only, its own timeout", async () => {
    const settings = await withSearchBudget(
      async (conn) =>
        (
          await sql<{ timeout: string; readOnly: string }>`
            SELECT current_setting('statement_timeout') AS timeout, current_setting('transaction_read_only') AS "readOnly"`.execute(
            conn,
          )
        ).rows[0],
      4321, // long enough for a new connection through the proxy on a loaded machine; its own, not the default
    );
    expect(settings).toEqual({ timeout: "4321ms", readOnly: "on" });
    const write = await withSearchBudget((conn) => sql`INSERT INTO neon_probe VALUES (9)`.execute(conn), 4321).catch(
      (e) => e,
    );
    expect(write.code).toBe("25006"); // read-only transaction
    expect(await backendPid()).toEqual(expect.any(Number)); // the connection went back to the pool usable
  });

  it("survives connections the server drops, idle or mid-query: no crash, a 503 for the query cut, then new ones", async () => {
    const idle = await backendPid();
    const open = proxy.open;
    await admin((c) => c.query("SELECT pg_terminate_backend($1)", [idle]));
    for (let tries = 0; proxy.open >= open && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
    // The pool heard the idle connection's end (an unheard 'error' there would crash the process) and dropped it.
    const next = await backendPid();
    expect(next).not.toBe(idle);

    // Cut mid-query, the query fails with the server's FATAL (57P01, a 503) well before the WebSocket's close
    // arrives; the next query must not be given the dead connection. Several rounds: the race is not every time.
    let previous = next;
    for (let round = 0; round < 5; round++) {
      const probe = `neon-driver-probe-${round}`;
      const running = sql
        .raw(`SELECT pg_sleep(2) /* ${probe} */`)
        .execute(db())
        .catch((e) => e);
      await admin(async (c) => {
        for (let tries = 0; tries < 100; tries++) {
          const { rows } = await c.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()",
            [`%${probe} */`],
          );
          if (rows.length) return;
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error("the probe query never showed up in pg_stat_activity");
      });
      const cut = await running;
      expect(cut).toBeInstanceOf(Error);
      expect(toHttpError(cut)).toMatchObject({ status: 503 });
      const after = await backendPid();
      expect(after).not.toBe(previous);
      previous = after;
    }
  });

  it("answers 503, not 500, when the WebSocket cannot open: nothing listening, or the proxy refusing", async () => {
    const closedPort = await startNeonProxy();
    const deadUrl = closedPort.url;
    await closedPort.close();
    const elsewhere = await startNeonProxy({ target: { host: "127.0.0.1", port: 1 } }); // refuses our address: 403
    try {
      for (const url of [deadUrl, elsewhere.url]) {
        await reopen({ NEON_WS_PROXY: url });
        const error = await sql`SELECT 1`.execute(db()).catch((e) => e);
        expect(error, url).toBeInstanceOf(Error);
        expect(error.code, url).toBe("08001");
        expect(toHttpError(error)).toMatchObject({ status: 503, code: "provider_unavailable" });
      }
    } finally {
      await elsewhere.close();
      await reopen();
    }
    expect(await backendPid()).toEqual(expect.any(Number));
  });
});
