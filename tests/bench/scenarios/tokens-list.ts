// Token lists and pool lookups at a million tokens: the default list, q with a rare, a common
// and a two-character term, fid, msgSender, sortBy=market-cap, page 1,000 by cursor, and
// fetch-by-pool-addresses with 100 addresses. The database floor of each request is the SQL the service
// sends for it, in order: the search budget's BEGIN/set_config, the page, planner estimate and bounded count
// (captured by running the service's own readJsonList against the bench database), and COMMIT.
import { Kysely, PostgresDialect } from "kysely";
import type { DB } from "@/db/types";
import { config } from "@/lib/core/config";
import { searchPoolFor } from "@/db";
import { budgetBeginSql } from "@/lib/domains/tokens/budget";
import { SEARCH_TERMS } from "@/dev/seed/vocabulary";
import { encodeCursor } from "@/lib/domains/tokens/cursor";
import { asListed, readJsonList } from "@/lib/domains/tokens/list";
import { tokensByPoolsQuery } from "@/lib/domains/tokens/queries/lookups";
import { tokensQuery } from "@/lib/domains/tokens/schemas";
import { searchRequest } from "@/lib/domains/tokens/service";
import { defineScenario, type BenchContext, type BenchScenario, type SqlQuery, type SqlRequest } from "./types";

/** A Kysely over the bench pool that records what it sends (never destroyed: the pool is the harness's). */
function recorder(ctx: BenchContext) {
  const sent: SqlQuery[] = [];
  const conn = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: ctx.pool }),
    log: (event) => {
      if (event.level === "query") sent.push({ text: event.query.sql, values: [...event.query.parameters] });
    },
  });
  return { conn, sent };
}

/**
 * Each list request as listTokens sends it: one statement per round; on the main pool in the budget's transaction,
 * whose BEGIN and COMMIT are queued on the connection rather than waited for, and on the search pool (searchPoolFor)
 * without one: the floor then holds a client of ctx.searchPool, whose sessions are the service's search pool's.
 */
async function listSql(ctx: BenchContext, queries: string[]): Promise<SqlRequest[]> {
  const budget = config().SEARCH_TIMEOUT_MS;
  const out: SqlRequest[] = [];
  for (const qs of queries) {
    const { conn, sent } = recorder(ctx);
    await readJsonList(conn, asListed(searchRequest(tokensQuery.parse(Object.fromEntries(new URLSearchParams(qs))))));
    const rounds = sent.map((q) => [q]);
    if (searchPoolFor(budget)) out.push(rounds);
    else out.push([[{ text: budgetBeginSql(budget), queued: true }], ...rounds, [{ text: "COMMIT", queued: true }]]);
  }
  return out;
}

async function column(ctx: BenchContext, text: string): Promise<string[]> {
  return (await ctx.pool.query(text)).rows.map((r) => String(Object.values(r)[0]));
}

/** Three of the busiest creators and seven ordinary ones. */
const fids = (ctx: BenchContext) =>
  column(
    ctx,
    `(SELECT requestor_fid FROM tokens WHERE requestor_fid IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 3)
     UNION ALL (SELECT requestor_fid FROM tokens WHERE requestor_fid IS NOT NULL AND id % 9973 = 11 ORDER BY id LIMIT 7)`,
  );
const senders = (ctx: BenchContext) =>
  column(
    ctx,
    `(SELECT msg_sender FROM tokens GROUP BY 1 ORDER BY count(*) DESC LIMIT 3)
     UNION ALL (SELECT msg_sender FROM tokens WHERE id % 9967 = 13 ORDER BY id LIMIT 7)`,
  );

/** The cursor ending page 999 (rows 9,980..9,989) of each order: the next request reads page 1,000. */
async function page1000(ctx: BenchContext): Promise<string[]> {
  const at = (order: string) =>
    `SELECT to_char(deployed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS v, id FROM tokens ORDER BY deployed_at ${order}, id ${order} OFFSET 9989 LIMIT 1`;
  const desc = (await ctx.pool.query(at("DESC"))).rows[0];
  const asc = (await ctx.pool.query(at("ASC"))).rows[0];
  const cap = (
    await ctx.pool.query(
      "SELECT market_cap_usd AS v, token_id AS id FROM token_market WHERE market_cap_usd IS NOT NULL ORDER BY market_cap_usd DESC NULLS LAST, token_id DESC OFFSET 9989 LIMIT 1",
    )
  ).rows[0];
  return [
    `cursor=${encodeCursor({ value: desc.v, id: Number(desc.id), order: "deployed_at:desc" })}`,
    `sort=asc&cursor=${encodeCursor({ value: asc.v, id: Number(asc.id), order: "deployed_at:asc" })}`,
    `sortBy=market-cap&cursor=${encodeCursor({ value: Number(cap.v), id: Number(cap.id), order: "market-cap:desc" })}`,
  ];
}

/** Five sets of 100 existing pools (20-byte and v4 ids), spread over the table. */
async function poolSets(ctx: BenchContext): Promise<string[][]> {
  const sets: string[][] = [];
  for (let k = 0; k < 5; k++)
    sets.push(
      await column(
        ctx,
        `SELECT pool_address FROM tokens WHERE id % 9001 = ${k * 17 + 1} AND pool_address IS NOT NULL ORDER BY id LIMIT 100`,
      ),
    );
  return sets;
}

function listScenario(
  name: string,
  description: string,
  queries: (ctx: BenchContext) => Promise<string[]>,
): BenchScenario {
  return {
    name,
    description,
    requests: async (ctx) => (await queries(ctx)).map((qs) => ({ path: `/api/tokens${qs ? `?${qs}` : ""}` })),
    sql: async (ctx) => listSql(ctx, await queries(ctx)),
    sqlPool: (ctx) => (searchPoolFor(config().SEARCH_TIMEOUT_MS) ? ctx.searchPool : ctx.pool),
  };
}

export default defineScenario([
  listScenario("tokens-default", "GET /api/tokens (newest first, 10)", async () => [""]),
  listScenario("tokens-q-rare", `GET /api/tokens?q=${SEARCH_TERMS.rare} (trigram, a few dozen matches)`, async () => [
    `q=${SEARCH_TERMS.rare}`,
  ]),
  listScenario("tokens-q-common", `GET /api/tokens?q=${SEARCH_TERMS.common} (trigram, ~10% of tokens)`, async () => [
    `q=${SEARCH_TERMS.common}`,
  ]),
  listScenario(
    "tokens-q-two-char",
    `GET /api/tokens?q=${SEARCH_TERMS.twoChar} (prefix of name or symbol)`,
    async () => [`q=${SEARCH_TERMS.twoChar}`],
  ),
  listScenario("tokens-fid", "GET /api/tokens?fid=<3 busiest, 7 ordinary creators>", async (ctx) =>
    (await fids(ctx)).map((f) => `fid=${f}`),
  ),
  listScenario("tokens-msg-sender", "GET /api/tokens?msgSender=<3 busiest, 7 ordinary deployers>", async (ctx) =>
    (await senders(ctx)).map((a) => `msgSender=${a}`),
  ),
  listScenario("tokens-market-cap", "GET /api/tokens?sortBy=market-cap (desc and asc)", async () => [
    "sortBy=market-cap",
    "sortBy=market-cap&sort=asc",
  ]),
  listScenario("tokens-page-1000", "GET /api/tokens?cursor=<end of page 999> (newest desc, asc, market-cap)", page1000),
  {
    name: "tokens-pool-addresses",
    description: "POST /api/tokens/fetch-by-pool-addresses with 100 pool addresses",
    requests: async (ctx) =>
      (await poolSets(ctx)).map((poolAddresses) => ({
        method: "POST" as const,
        path: "/api/tokens/fetch-by-pool-addresses",
        body: { poolAddresses },
      })),
    sql: async (ctx) => {
      const { conn } = recorder(ctx);
      return (await poolSets(ctx)).map((set) => {
        const c = tokensByPoolsQuery(conn, set).compile();
        return [[{ text: c.sql, values: [...c.parameters] }]];
      });
    },
  },
]);
