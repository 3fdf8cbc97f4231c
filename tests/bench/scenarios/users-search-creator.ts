// GET /api/search-creator by name (full usernames), by 3-letter stem, and by address (verified wallets
// and deployers, interface deployers with very many tokens among them). The database floor is the
// endpoint's own SQL per request: the creator match, then the token page (with its trust facts), the planner's
// estimate and the bounded count when the token list sends them.
import type pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";
import { readJsonList } from "@/lib/domains/tokens/list";
import { creatorsByNameQuery } from "@/lib/domains/users/queries/profiles";
import { MAX_CREATORS } from "@/lib/domains/creators/search";
import { creatorTokensRequest, type Creators } from "@/lib/domains/creators/tokens";
import { defineScenario, type BenchContext, type SqlQuery, type SqlRequest } from "./types";

const PAGE = { sort: "desc" as const, limit: 20, offset: 0 };

async function column(pool: pg.Pool, text: string): Promise<string[]> {
  return (await pool.query(text)).rows.map((r) => Object.values(r)[0] as string);
}

const names = (ctx: BenchContext) =>
  column(
    ctx.pool,
    `(SELECT username FROM users WHERE username IS NOT NULL ORDER BY follower_count DESC LIMIT 10)
     UNION ALL (SELECT username FROM users WHERE username IS NOT NULL AND fid % 997 = 3 ORDER BY fid LIMIT 10)`,
  );
const stems = async (ctx: BenchContext) => [...new Set((await names(ctx)).map((n) => n.slice(0, 3)))].slice(0, 10);
const addresses = (ctx: BenchContext) =>
  column(
    ctx.pool,
    `(SELECT address FROM user_addresses WHERE fid % 991 = 5 ORDER BY fid, address LIMIT 12)
     UNION ALL (SELECT msg_sender FROM (SELECT msg_sender, count(*) AS n FROM tokens GROUP BY msg_sender ORDER BY n DESC LIMIT 3) big)
     UNION ALL (SELECT msg_sender FROM tokens WHERE requestor_fid IS NULL AND id % 1009 = 7 ORDER BY id LIMIT 5)`,
  );

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
 * What the service sends for one search after the creator lookup, captured by running its own functions
 * against the bench database: the token list's statements one after another.
 */
async function tokenSql(ctx: BenchContext, creators: Creators): Promise<SqlRequest> {
  if (!creators.fids.length && !creators.addresses.length) return [];
  const list = recorder(ctx);
  await readJsonList(list.conn, creatorTokensRequest(creators, {}, PAGE));
  return list.sent.map((q) => [q]);
}

async function nameSql(ctx: BenchContext, list: string[]): Promise<SqlRequest[]> {
  const out: SqlRequest[] = [];
  for (const name of list) {
    const compiled = creatorsByNameQuery(name.toLowerCase(), MAX_CREATORS).compile(db());
    const match = { text: compiled.sql, values: [...compiled.parameters] };
    const users = (await ctx.pool.query(match.text, match.values)).rows as {
      fid: string;
      verified_addresses: string[];
    }[];
    const creators: Creators = {
      fids: users.map((u) => Number(u.fid)),
      addresses: [...new Set(users.flatMap((u) => u.verified_addresses))],
    };
    out.push([[match], ...(await tokenSql(ctx, creators))]);
  }
  return out;
}

async function addressSql(ctx: BenchContext): Promise<SqlRequest[]> {
  const out: SqlRequest[] = [];
  for (const address of await addresses(ctx)) {
    const holders = {
      text: "SELECT u.* FROM user_addresses ua JOIN users u ON u.fid = ua.fid WHERE ua.address = $1 ORDER BY u.follower_count DESC LIMIT 10",
      values: [address],
    };
    const rows = (await ctx.pool.query(holders.text, holders.values)).rows as {
      fid: string;
      verified_addresses: string[];
    }[];
    const top = rows.slice(0, 1);
    const creators: Creators = {
      fids: top.map((u) => Number(u.fid)),
      addresses: [...new Set([address, ...top.flatMap((u) => u.verified_addresses)])],
    };
    out.push([[holders], ...(await tokenSql(ctx, creators))]);
  }
  return out;
}

export default defineScenario([
  {
    name: "users-search-creator-name",
    description: "GET /api/search-creator?q=<username> (10 popular, 10 ordinary creators)",
    requests: async (ctx) =>
      (await names(ctx)).map((q) => ({ path: `/api/search-creator?q=${encodeURIComponent(q)}` })),
    sql: async (ctx) => nameSql(ctx, await names(ctx)),
  },
  {
    name: "users-search-creator-stem",
    description: "GET /api/search-creator?q=<3-letter stem> (substring match over names and handles)",
    requests: async (ctx) =>
      (await stems(ctx)).map((q) => ({ path: `/api/search-creator?q=${encodeURIComponent(q)}` })),
    sql: async (ctx) => nameSql(ctx, await stems(ctx)),
  },
  {
    name: "users-search-creator-address",
    description: "GET /api/search-creator?q=<address> (verified wallets, ordinary and interface deployers)",
    requests: async (ctx) => (await addresses(ctx)).map((q) => ({ path: `/api/search-creator?q=${q}` })),
    sql: addressSql,
  },
]);
