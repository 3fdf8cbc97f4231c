// Queries on token_index_checkpoints (the TokenCreated indexer's progress per factory) and token_submissions
// (tokens users said they deployed from the UI).
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type { TokenSubmissionsTable } from "@/db/tables/deploy";

/** The last block indexed for the factory on the chain, or null before its first range. */
export async function findTokenIndexCheckpoint(db: Database, chainId: number, factory: string): Promise<number | null> {
  const row = await db
    .selectFrom("token_index_checkpoints")
    .select("last_block")
    .where("chain_id", "=", chainId)
    .where("factory", "=", factory)
    .executeTakeFirst();
  return row ? Number(row.last_block) : null;
}

/** Every factory's checkpoint (at most `limit`), for the operator view. */
export function listTokenIndexCheckpoints(db: Database, limit: number) {
  return db
    .selectFrom("token_index_checkpoints")
    .select(["chain_id as chainId", "factory as contract", "last_block as lastBlock", "updated_at as updatedAt"])
    .orderBy("chain_id")
    .orderBy("factory")
    .limit(limit)
    .execute();
}

/** Moves the factory's checkpoint to `lastBlock`, never backwards. */
export async function advanceTokenIndexCheckpoint(
  db: Database,
  chainId: number,
  factory: string,
  lastBlock: number,
): Promise<void> {
  await db
    .insertInto("token_index_checkpoints")
    .values({ chain_id: chainId, factory, last_block: lastBlock })
    .onConflict((oc) =>
      oc.columns(["chain_id", "factory"]).doUpdateSet({
        last_block: sql`greatest(token_index_checkpoints.last_block, excluded.last_block)`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/** One submission per (chain, address, user): a later one replaces its transaction hash. */
export async function upsertTokenSubmission(
  db: Database,
  submission: Insertable<TokenSubmissionsTable>,
): Promise<void> {
  await db
    .insertInto("token_submissions")
    .values(submission)
    .onConflict((oc) => oc.columns(["chain_id", "address", "user_id"]).doUpdateSet({ tx_hash: submission.tx_hash }))
    .execute();
}
