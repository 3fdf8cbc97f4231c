// Queries on airdrop_claims (the airdrop extension's indexed AirdropClaimed events); the claim indexer's progress is
// in the checkpoint store (lib/platform/checkpoints.ts).
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type { AirdropClaimsTable } from "@/db/tables/airdrops";

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
