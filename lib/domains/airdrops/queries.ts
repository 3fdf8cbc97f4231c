// Queries on airdrop_claims (the airdrop extension's indexed AirdropClaimed events) and airdrop_claim_checkpoints
// (the claim indexer's progress per chain and airdrop contract).
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type { AirdropClaimsTable } from "@/db/tables/airdrops";

/** The last block indexed for the airdrop contract on the chain, or null before its first range. */
export async function findAirdropClaimCheckpoint(
  db: Database,
  chainId: number,
  airdrop: string,
): Promise<number | null> {
  const row = await db
    .selectFrom("airdrop_claim_checkpoints")
    .select("last_block")
    .where("chain_id", "=", chainId)
    .where("airdrop", "=", airdrop)
    .executeTakeFirst();
  return row ? Number(row.last_block) : null;
}

/** Every airdrop contract's checkpoint (at most `limit`), for the operator view. */
export function listAirdropClaimCheckpoints(db: Database, limit: number) {
  return db
    .selectFrom("airdrop_claim_checkpoints")
    .select(["chain_id as chainId", "airdrop as contract", "last_block as lastBlock", "updated_at as updatedAt"])
    .orderBy("chain_id")
    .orderBy("airdrop")
    .limit(limit)
    .execute();
}

/** Inserts the claims not stored yet (unique by chain, tx hash, log index); returns how many were new. */
export async function insertAirdropClaims(db: Database, claims: Insertable<AirdropClaimsTable>[]): Promise<number> {
  const rows = await db
    .insertInto("airdrop_claims")
    .values(claims)
    .onConflict((oc) => oc.columns(["chain_id", "tx_hash", "log_index"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

/** Moves the airdrop contract's checkpoint to `lastBlock`, never backwards. */
export async function advanceAirdropClaimCheckpoint(
  db: Database,
  chainId: number,
  airdrop: string,
  lastBlock: number,
): Promise<void> {
  await db
    .insertInto("airdrop_claim_checkpoints")
    .values({ chain_id: chainId, airdrop, last_block: lastBlock })
    .onConflict((oc) =>
      oc.columns(["chain_id", "airdrop"]).doUpdateSet({
        last_block: sql`greatest(airdrop_claim_checkpoints.last_block, excluded.last_block)`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/**
 * What the token's airdrop has paid out on the chain: each event carries the account's claimed total so far, so
 * the sum over accounts of their largest total (a decimal string; "0" without claims), and how many accounts claimed.
 */
export async function sumAirdropClaimed(
  db: Database,
  chainId: number,
  token: string,
): Promise<{ claimed: string; claimers: number }> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("airdrop_claims")
        .select((e) => ["account", e.fn.max("total_claimed").as("total")])
        .where("chain_id", "=", chainId)
        .where("token", "=", token)
        .groupBy("account")
        .as("per_account"),
    )
    .select((eb) => [
      sql<string>`coalesce(sum(${eb.ref("per_account.total")}), 0)::text`.as("claimed"),
      eb.fn.countAll<string>().as("claimers"),
    ])
    .executeTakeFirstOrThrow();
  return { claimed: row.claimed, claimers: Number(row.claimers) };
}
