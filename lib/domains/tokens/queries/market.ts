// Statements of the market-data refresh: the tokens to refresh (stored token_market rows, the stalest
// first, and a sweep over all tokens, newest first) and the upsert of their figures.
import { sql } from "kysely";
import type { Database } from "@/db";
import type { MarketValues } from "@/lib/domains/tokens/serialize";

/** A token whose pool the refresh asks the aggregator about; `stored`: it has a token_market row. */
export type MarketCandidate = {
  id: number;
  chain_id: number;
  pool_address: string;
  contract_address: string;
  supply: string;
  stored: boolean;
};

/** Tokens with a pool on `chains` whose market row was not refreshed within `intervalSeconds`, the stalest first. */
export function findStalestMarketTokens(
  db: Database,
  chains: number[],
  intervalSeconds: number,
  limit: number,
): Promise<MarketCandidate[]> {
  return db
    .selectFrom("token_market as m")
    .innerJoin("tokens as t", "t.id", "m.token_id")
    .select(["t.id", "t.chain_id", "t.pool_address", "t.contract_address", "t.supply", sql<boolean>`true`.as("stored")])
    .where("m.updated_at", "<", sql<Date>`now() - make_interval(secs => ${intervalSeconds})`)
    .where("t.pool_address", "is not", null)
    .where("t.chain_id", "in", chains)
    .orderBy("m.updated_at")
    .orderBy("m.token_id")
    .limit(limit)
    .execute() as Promise<MarketCandidate[]>;
}

/** These tokens, when they have a pool on `chains` (a refresh a list asked for). */
export function findMarketTokensByIds(db: Database, chains: number[], ids: number[]): Promise<MarketCandidate[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("tokens as t")
    .leftJoin("token_market as m", "m.token_id", "t.id")
    .select([
      "t.id",
      "t.chain_id",
      "t.pool_address",
      "t.contract_address",
      "t.supply",
      sql<boolean>`m.token_id IS NOT NULL`.as("stored"),
    ])
    .where("t.id", "in", ids)
    .where("t.pool_address", "is not", null)
    .where("t.chain_id", "in", chains)
    .execute() as Promise<MarketCandidate[]>;
}

/** Tokens with a pool on `chains`, newest (highest id) first, below the id `below` when given. */
export async function findSweepTokens(
  db: Database,
  chains: number[],
  below: number | null,
  limit: number,
): Promise<MarketCandidate[]> {
  let query = db
    .selectFrom("tokens as t")
    .select([
      "t.id",
      "t.chain_id",
      "t.pool_address",
      "t.contract_address",
      "t.supply",
      sql<boolean>`false`.as("stored"),
    ])
    .where("t.pool_address", "is not", null)
    .where("t.chain_id", "in", chains)
    .orderBy("t.id", "desc")
    .limit(limit);
  if (below) query = query.where("t.id", "<", below);
  return (await query.execute()) as MarketCandidate[];
}

/** Inserts or overwrites the market rows of these tokens, stamped now. */
export async function upsertMarketRows(
  db: Database,
  rows: Array<{ token_id: number } & Omit<MarketValues, "updated_at">>,
): Promise<void> {
  await db
    .insertInto("token_market")
    .values(rows.map((r) => ({ ...r, updated_at: sql<Date>`now()` })))
    .onConflict((oc) =>
      oc.column("token_id").doUpdateSet((eb) => ({
        market_cap_usd: eb.ref("excluded.market_cap_usd"),
        price_usd: eb.ref("excluded.price_usd"),
        volume_24h_usd: eb.ref("excluded.volume_24h_usd"),
        tx_count_24h: eb.ref("excluded.tx_count_24h"),
        price_change_1h: eb.ref("excluded.price_change_1h"),
        price_change_24h: eb.ref("excluded.price_change_24h"),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

/** Stamps the market rows of these tokens as refreshed now, keeping their figures. */
export async function touchMarketRows(db: Database, tokenIds: number[]): Promise<void> {
  await db
    .updateTable("token_market")
    .set({ updated_at: sql<Date>`now()` })
    .where("token_id", "in", tokenIds)
    .execute();
}

/** Appends one snapshot per refreshed token, stamped now (the chart's history). */
export async function appendMarketSnapshots(
  db: Database,
  rows: Array<{ token_id: number } & Pick<MarketValues, "market_cap_usd" | "price_usd" | "volume_24h_usd">>,
): Promise<void> {
  await db
    .insertInto("token_market_snapshots")
    .values(
      rows.map((r) => ({
        token_id: r.token_id,
        market_cap_usd: r.market_cap_usd,
        price_usd: r.price_usd,
        volume_24h_usd: r.volume_24h_usd,
      })),
    )
    .onConflict((oc) => oc.columns(["token_id", "taken_at"]).doNothing())
    .execute();
}

/** A token's snapshots since `since`, oldest first, at most `limit` (the newest of them). */
export async function findMarketSnapshots(db: Database, tokenId: number, since: Date, limit: number) {
  const rows = await db
    .selectFrom("token_market_snapshots")
    .select(["taken_at", "market_cap_usd", "price_usd", "volume_24h_usd"])
    .where("token_id", "=", tokenId)
    .where("taken_at", ">=", since)
    .orderBy("taken_at", "desc")
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** Deletes up to `limit` snapshots taken before `cutoff`; returns how many went. */
export async function deleteMarketSnapshotsBefore(db: Database, cutoff: Date, limit: number): Promise<number> {
  const result = await sql`
    DELETE FROM token_market_snapshots WHERE ctid IN (
      SELECT ctid FROM token_market_snapshots WHERE taken_at < ${cutoff} LIMIT ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
