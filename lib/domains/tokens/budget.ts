// The time budget of a token search. Postgres enforces it as the statement timeout of the search's statements (a
// cancelled statement is 57014, which route() answers 503 `timeout` with Retry-After 5): the sessions of the search
// pool carry it (SEARCH_POOL_MAX, db/index.ts), else a transaction of the search's own on the main pool sets it.
// A timer of the same length races the work, because the budget must also cover waiting for a pooled
// connection, and because PGlite ignores statement_timeout: a WASM statement cannot be interrupted, so
// on PGlite the budget bounds the wait for the one connection, not a running statement.
import { sql } from "kysely";
import { type Database, db, SEARCH_PLANNER_SETTINGS, searchPoolFor } from "@/db";
import { config } from "@/lib/core/config";
import { timedOut, toHttpError } from "@/lib/core/errors";
import { countSearchTimeout } from "@/lib/core/telemetry";

/**
 * The statement that opens a search's transaction of `budgetMs` (a whole number of milliseconds, at least 1), also
 * replayed by the benchmark's database floor.
 */
export const budgetBeginSql = (budgetMs: number) => {
  const settings = { statement_timeout: String(budgetMs), ...SEARCH_PLANNER_SETTINGS };
  const set = Object.entries(settings).map(([name, value]) => `set_config('${name}', '${value}', true)`);
  return `BEGIN READ ONLY; SELECT ${set.join(", ")}`;
};

/**
 * Runs `work` on one connection whose statements may take at most `budgetMs` each, read-only, under
 * SEARCH_PLANNER_SETTINGS, and answers within about `budgetMs` overall: a connection of the search pool as it is, or
 * one of the main pool inside a transaction that sets them.
 * Neither end of a transaction is waited for on its own: the driver sends a connection's statements in the order
 * they are issued, so the work's first statement is built while BEGIN is in flight and goes out as soon as BEGIN is
 * answered (whose outcome is checked after the work), and a read-only transaction's COMMIT, which cannot lose
 * anything, is sent as the connection goes back to the pool, ahead of whatever its next user sends: the answer no
 * longer waits for its round trip.
 */
export async function withSearchBudget<T>(
  work: (db: Database) => Promise<T>,
  budgetMs = config().SEARCH_TIMEOUT_MS,
): Promise<T> {
  const ms = Math.max(1, Math.floor(budgetMs));
  let abandoned = false;
  const searchPool = searchPoolFor(ms);
  const run = (searchPool ?? db()).connection().execute(async (conn) => {
    if (abandoned) throw timedOut();
    if (searchPool) return work(conn); // its sessions carry the settings
    const begun = sql.raw(budgetBeginSql(ms)).execute(conn);
    begun.catch(() => {}); // awaited below, after the work
    try {
      const result = await work(conn);
      await begun;
      sql
        .raw("COMMIT")
        .execute(conn)
        .catch(() => {}); // a failed COMMIT of a read leaves nothing undone; a dead connection is dropped by the pool
      return result;
    } catch (error) {
      await sql
        .raw("ROLLBACK")
        .execute(conn)
        .catch(() => {});
      throw error;
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned = true;
      reject(timedOut());
    }, ms);
  });
  try {
    return await Promise.race([run, deadline]);
  } catch (error) {
    if (toHttpError(error).code === "timeout") countSearchTimeout("tokens");
    throw error;
  } finally {
    clearTimeout(timer);
    run.catch(() => {}); // an abandoned search still ends (server-side timeout) and releases its connection
  }
}
