// Queries on fee_claims (the fee locker's indexed ClaimTokens events); the claim indexer's progress is in the
// checkpoint store (lib/platform/checkpoints.ts).
import type { Insertable } from "kysely";
import type { Database } from "@/db";
import type { FeeClaimsTable } from "@/db/tables/creators";

/** Inserts the claims not stored yet (unique by chain, tx hash, log index); returns how many were new. */
export async function insertFeeClaims(db: Database, claims: Insertable<FeeClaimsTable>[]): Promise<number> {
  const rows = await db
    .insertInto("fee_claims")
    .values(claims)
    .onConflict((oc) => oc.columns(["chain_id", "tx_hash", "log_index"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

/** Per fee owner among `owners` (non-empty): the sum and count of its claims of `token` on the chain. */
export function sumClaimsByOwner(db: Database, chainId: number, token: string, owners: string[]) {
  return db
    .selectFrom("fee_claims")
    .select((eb) => ["fee_owner", eb.fn.sum<string>("amount").as("total"), eb.fn.countAll<number>().as("claims")])
    .where("chain_id", "=", chainId)
    .where("token", "=", token)
    .where("fee_owner", "in", owners)
    .groupBy("fee_owner")
    .execute();
}

/**
 * One fee owner's claims of `token` on the chain, newest first: `limit` of them after `offset`, and one more when
 * more follow (the fee_claims_owner index finds them; an owner's claims are few).
 */
export function findClaimsOfOwner(
  db: Database,
  q: { chainId: number; token: string; owner: string; limit: number; offset: number },
) {
  return db
    .selectFrom("fee_claims")
    .select(["tx_hash", "amount"])
    .where("chain_id", "=", q.chainId)
    .where("token", "=", q.token)
    .where("fee_owner", "=", q.owner)
    .orderBy("block_number", "desc")
    .orderBy("log_index", "desc")
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
}
