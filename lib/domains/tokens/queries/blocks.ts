// Statements on the token blocklist (blocked_tokens): a block is global (chain_id NULL) or for one chain.
import { sql } from "kysely";
import type { Database } from "@/db";

/** With a chain: whether the address is blocked globally or on that chain; without one: on any chain. */
export async function findBlock(db: Database, address: string, chainId?: number): Promise<boolean> {
  let query = db.selectFrom("blocked_tokens").select("id").where("address", "=", address).limit(1);
  if (chainId !== undefined)
    query = query.where((eb) => eb.or([eb("chain_id", "is", null), eb("chain_id", "=", chainId)]));
  return Boolean(await query.executeTakeFirst());
}

/** Inserts the block, or replaces the reason of the same block (address and chain, or global). */
export async function upsertBlock(
  db: Database,
  address: string,
  chainId: number | null,
  reason: string | null,
): Promise<void> {
  await db
    .insertInto("blocked_tokens")
    .values({ address, chain_id: chainId, reason })
    .onConflict((oc) => oc.expression(sql`address, coalesce(chain_id, 0)`).doUpdateSet({ reason }))
    .execute();
}

/** Deletes exactly that block (global when `chainId` is null); returns whether there was one. */
export async function deleteBlock(db: Database, address: string, chainId: number | null): Promise<boolean> {
  const result = await db
    .deleteFrom("blocked_tokens")
    .where("address", "=", address)
    .where("chain_id", chainId === null ? "is" : "=", chainId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
