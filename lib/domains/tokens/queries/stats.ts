// Launch statistics of a token list (a creator's tokens): per chain, over its newest tokens, the count,
// the first and latest deployment and the summed stored market cap; and its first deployment.
import { sql } from "kysely";
import type { Database } from "@/db";
import { filterConditions, type TokenFilters } from "./filters";

export type ChainStatsRow = { chain_id: number; tokens: number; first: Date; latest: Date; market_cap: number };

/** Aggregated in one statement over the newest `sample` tokens matching `f`, by chain id. */
export async function findChainStatsOfNewest(db: Database, f: TokenFilters, sample: number): Promise<ChainStatsRow[]> {
  const newest = db
    .selectFrom("tokens as t")
    .where((eb) => eb.and(filterConditions(eb, f)))
    .select(["t.id", "t.chain_id", "t.deployed_at"])
    .orderBy("t.deployed_at", "desc")
    .orderBy("t.id", "desc")
    .limit(sample);
  const rows = await db
    .selectFrom(newest.as("s"))
    .leftJoin("token_market as m", "m.token_id", "s.id")
    .select((eb) => [
      "s.chain_id",
      eb.fn.countAll<number>().as("tokens"),
      eb.fn.min("s.deployed_at").as("first"),
      eb.fn.max("s.deployed_at").as("latest"),
      sql<number>`coalesce(sum(m.market_cap_usd), 0)`.as("market_cap"),
    ])
    .groupBy("s.chain_id")
    .orderBy("s.chain_id")
    .execute();
  return rows.map((r) => ({
    chain_id: r.chain_id,
    tokens: Number(r.tokens),
    first: r.first as Date,
    latest: r.latest as Date,
    market_cap: Number(r.market_cap),
  }));
}

/** When the oldest token matching `f` was deployed, or null when none matches. */
export async function findFirstDeployedAt(db: Database, f: TokenFilters): Promise<Date | null> {
  const row = await db
    .selectFrom("tokens as t")
    .where((eb) => eb.and(filterConditions(eb, f)))
    .select("t.deployed_at")
    .orderBy("t.deployed_at", "asc")
    .orderBy("t.id", "asc")
    .limit(1)
    .executeTakeFirst();
  return row?.deployed_at ?? null;
}
