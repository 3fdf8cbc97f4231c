// The search budget: a token search that outruns SEARCH_TIMEOUT_MS answers 503 `timeout` with
// Retry-After: 5 and never hangs, on PostgreSQL (statement timeout) and on PGlite (the budget's timer).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { type Kysely, sql } from "kysely";
import { GET } from "@/app/api/tokens/route";
import { closeDb, db } from "@/db";
import type { DB } from "@/db/types";
import { resetConfig } from "@/lib/core/config";
import { withSearchBudget } from "@/lib/domains/tokens/budget";
import { call, expectError } from "@/tests/helpers/http";
import { insertTokens } from "./fixtures";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  await insertTokens([{ name: "Based Budget" }]);
});

afterAll(() => budget(undefined));

function budget(ms: number | undefined) {
  if (ms === undefined) delete process.env.SEARCH_TIMEOUT_MS;
  else process.env.SEARCH_TIMEOUT_MS = String(ms);
  resetConfig();
}

/**
 * Makes the database busy for the duration of `fn`: on PostgreSQL another session holds an exclusive lock
 * on tokens (the search's statement waits for it); on PGlite, which is one session, the search waits for
 * the session itself.
 */
async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
  if (onPostgres) {
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    await other.query("BEGIN; LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE");
    try {
      return await fn();
    } finally {
      await other.query("ROLLBACK");
      await other.end();
    }
  }
  let release!: () => void;
  let held!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const acquired = new Promise<void>((resolve) => (held = resolve));
  const holding = db()
    .connection()
    .execute(async () => {
      held();
      await gate;
    });
  await acquired;
  try {
    return await fn();
  } finally {
    release();
    await holding;
  }
}

describe("the token search budget", () => {
  it("answers 503 timeout with Retry-After 5 when the search outruns SEARCH_TIMEOUT_MS, then recovers", async () => {
    budget(50);
    const started = Date.now();
    const res = await whileBusy(() => call(GET, "/api/tokens?q=based"));
    budget(undefined);
    expect(Date.now() - started).toBeLessThan(10_000); // answered, not hung behind the lock
    expectError(res, 503, "timeout");
    expect(res.headers.get("retry-after")).toBe("5");
    const after = await call(GET, "/api/tokens?q=based");
    expect(after.status, after.text).toBe(200);
    expect(after.body.data.map((t: { name: string }) => t.name)).toEqual(["Based Budget"]);
  });

  it.skipIf(!onPostgres)(
    "is the transaction's statement timeout on PostgreSQL: the server cancels the statement (57014)",
    async () => {
      let code: string | undefined;
      let done!: () => void;
      const cancelled = new Promise<void>((resolve) => (done = resolve));
      const outcome = await withSearchBudget(async (conn) => {
        try {
          await sql`SELECT pg_sleep(2)`.execute(conn);
        } catch (error) {
          code = (error as { code?: string }).code;
          throw error;
        } finally {
          done();
        }
      }, 100).catch((error) => error);
      expect(outcome).toMatchObject({ status: 503, code: "timeout" });
      await cancelled;
      expect(code).toBe("57014");
    },
  );

  it("hands the connection on outside its transaction: the COMMIT it does not wait for goes out first", async () => {
    const settings = async () => {
      const { rows } = await sql<{ ro: string; timeout: string }>`
        SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout`.execute(
        db(),
      );
      return rows[0];
    };
    const outside = await settings();
    expect(outside.ro).toBe("off");
    for (let i = 0; i < 5; i++) {
      const inside = await withSearchBudget(async (conn) => {
        const { rows } = await sql<{ ro: string; timeout: string }>`
          SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout`.execute(
          conn,
        );
        return rows[0];
      }, 1234);
      expect(inside).toEqual({ ro: "on", timeout: "1234ms" });
      // The pool hands the connection just released to the next user (PGlite has only the one).
      expect(await settings()).toEqual(outside);
    }
  });
});

describe.skipIf(!onPostgres)("the search pool (SEARCH_POOL_MAX): searches without a transaction", () => {
  const withSearchPool = async (timeoutMs: number, fn: () => Promise<void>, databaseUrl = process.env.DATABASE_URL) => {
    const main = process.env.DATABASE_URL;
    process.env.SEARCH_POOL_MAX = "1"; // one connection: the next search gets the one before's
    process.env.DATABASE_URL = databaseUrl;
    budget(timeoutMs);
    try {
      await fn();
    } finally {
      delete process.env.SEARCH_POOL_MAX;
      process.env.DATABASE_URL = main;
      budget(undefined);
      await closeDb();
    }
  };
  const session = (conn: Kysely<DB>) =>
    sql<Record<string, string | boolean>>`
      SELECT current_setting('statement_timeout') AS timeout, current_setting('transaction_read_only') AS ro,
        current_setting('jit') AS jit, current_setting('max_parallel_workers_per_gather') AS parallel,
        current_setting('work_mem') AS "workMem", statement_timestamp() = transaction_timestamp() AS "ownTransaction"`
      .execute(conn)
      .then((r) => r.rows[0]);
  const searchSettings = { timeout: "1500ms", ro: "on", jit: "off", parallel: "0", ownTransaction: true };

  it("runs a search's statements in sessions that carry its settings, each statement its own transaction", async () => {
    await withSearchPool(1500, async () => {
      for (let i = 0; i < 3; i++) {
        const inside = await withSearchBudget(async (conn) => {
          await sql`SELECT pg_sleep(0.01)`.execute(conn); // a transaction's next statement would start later than it
          return session(conn);
        });
        expect(inside).toMatchObject(searchSettings);
      }
      const write = await withSearchBudget((conn) => sql`UPDATE tokens SET name = name`.execute(conn)).catch((e) => e);
      expect(write.code).toBe("25006"); // read-only transaction
      // The main pool's sessions are left as they were; a budget other than the configured one takes a transaction.
      expect(await session(db())).toMatchObject({ ro: "off", timeout: "3s", ownTransaction: true });
      expect(await withSearchBudget(session, 700)).toMatchObject({ timeout: "700ms", ro: "on", ownTransaction: false });
    });
  });

  it("keeps the URL's own options beside its settings, and its timeout over the URL's", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set("options", "-c work_mem=5MB -c jit=on");
    url.searchParams.set("statement_timeout", "99999");
    await withSearchPool(
      1500,
      async () => expect(await withSearchBudget(session)).toEqual({ ...searchSettings, workMem: "5MB" }),
      url.toString(),
    );
  });

  it("is cancelled by the server at SEARCH_TIMEOUT_MS (57014, 503 timeout), and its connection serves the next search", async () => {
    // 1.2 s: the searches after the cancel get the same budget, which a loaded CI machine must not run out of.
    await withSearchPool(1200, async () => {
      let code: string | undefined;
      let cancelledPid: number | undefined;
      const outcome = await withSearchBudget(async (conn) => {
        cancelledPid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn)).rows[0]!.pid;
        await sql`SELECT pg_sleep(5)`.execute(conn).catch((error) => {
          code = error.code;
          throw error;
        });
      }).catch((error) => error);
      expect(outcome).toMatchObject({ status: 503, code: "timeout" });
      for (let tries = 0; code === undefined && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
      expect(code).toBe("57014");
      const next = await withSearchBudget(async (conn) => ({
        ...(await session(conn)),
        pid: (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn)).rows[0]!.pid,
      }));
      expect(next).toMatchObject({ timeout: "1200ms", ro: "on", jit: "off", ownTransaction: true, pid: cancelledPid });
      expectError(await whileBusy(() => call(GET, "/api/tokens?q=based")), 503, "timeout");
      const after = await call(GET, "/api/tokens?q=based");
      expect(after.status, after.text).toBe(200);
    });
  });
});
