// Single-token lookups: by contract address (EVM or Solana mint), by pool address or v4 pool id, and
// many pools at once. A contract or pool can exist on several chains; the default chain's row wins, then
// the newest deployment.
import { sql } from "kysely";
import type { Database } from "@/db";
import { tokenJsonColumns, type TokenRow } from "@/lib/domains/tokens/serialize";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

/** Of each pool (lowercase pool address or pool id) one token: the default chain's, else the newest. */
function poolTokens(db: Database, pools: string[], chainId?: number) {
  const query = db
    .selectFrom("tokens as t")
    .distinctOn("t.pool_address")
    .where("t.pool_address", "in", pools)
    .orderBy("t.pool_address")
    .orderBy(sql`t.chain_id = ${DEFAULT_CHAIN_ID}`, "desc")
    .orderBy("t.deployed_at", "desc")
    .orderBy("t.id", "desc");
  return chainId === undefined ? query : query.where("t.chain_id", "=", chainId);
}

/** The one query of fetch-by-pool-addresses: each token as JSON text (tokenJson), keyed by its pool. */
export function tokensByPoolsQuery(db: Database, pools: string[]) {
  return poolTokens(db, pools).select(tokenJsonColumns);
}

/** The rows of `pools` (distinct, at least one), one per pool, in one query. */
export function findTokenRowsByPools(db: Database, pools: string[], chainId?: number): Promise<TokenRow[]> {
  return poolTokens(db, pools, chainId).selectAll("t").execute();
}

/** The chain a lowercase token address is indexed on (the default chain first), or null when it is not indexed. */
export async function findTokenChainId(db: Database, address: string): Promise<number | null> {
  const row = await db
    .selectFrom("tokens")
    .select("chain_id")
    .where("contract_address", "=", address)
    .orderBy(sql`chain_id = ${DEFAULT_CHAIN_ID}`, "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.chain_id ?? null;
}

/** The token of a contract address (lowercase hex or a base58 mint as given) on any chain. */
export function findTokenByAddress(db: Database, address: string): Promise<TokenRow | undefined> {
  return db
    .selectFrom("tokens as t")
    .selectAll("t")
    .where("t.contract_address", "=", address)
    .orderBy(sql`t.chain_id = ${DEFAULT_CHAIN_ID}`, "desc")
    .orderBy("t.deployed_at", "desc")
    .orderBy("t.id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The first indexed token of a lowercase contract or pool address (v4 pool ids too) on one chain, with its reward facts and stored USD price. */
export function findTokenOnChain(
  db: Database,
  by: "contract_address" | "pool_address",
  value: string,
  chainId: number,
) {
  return db
    .selectFrom("tokens")
    .leftJoin("token_market as m", "m.token_id", "tokens.id")
    .select([
      "id",
      "contract_address",
      "chain_id",
      "type",
      "locker_address",
      "lp_nft_id",
      "pool_address",
      "pool_config",
      "m.price_usd",
    ])
    .where(by, "=", value)
    .where("chain_id", "=", chainId)
    .orderBy("id")
    .executeTakeFirst();
}

/** Which of `lockers` (lowercase) are the locker of a v0 or v1 token on the chain: those generations have one each. */
export async function findLegacyTokenLockers(db: Database, chainId: number, lockers: string[]): Promise<string[]> {
  if (lockers.length === 0) return [];
  const rows = await db
    .selectFrom("tokens")
    .select("locker_address")
    .distinct()
    .where("chain_id", "=", chainId)
    .where("type", "in", ["proxy", "clanker"])
    .where("locker_address", "in", lockers)
    .execute();
  return rows.map((r) => r.locker_address!);
}
