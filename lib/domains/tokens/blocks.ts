// The token blocklist: a block is global (no chain) or for one chain. Managed with `npm run tokens`.
import { sql } from "kysely";
import { db } from "@/db";
import { checksum } from "@/lib/core/input";

/**
 * With a chain: blocked globally or on that chain. Without one (the global check): blocked anywhere, so
 * that a caller who does not say which chain never misses a block.
 */
export async function isBlocked(address: string, chainId?: number) {
  let query = db().selectFrom("blocked_tokens").select("id").where("address", "=", address).limit(1);
  if (chainId !== undefined) query = query.where((eb) => eb.or([eb("chain_id", "is", null), eb("chain_id", "=", chainId)]));
  const found = await query.executeTakeFirst();
  return { address: checksum(address)!, chainId: chainId ?? null, blocked: Boolean(found) };
}

/** Idempotent: blocking again updates the reason. `chainId` null blocks on every chain. */
export async function blockToken(address: string, chainId: number | null, reason: string | null): Promise<void> {
  await db()
    .insertInto("blocked_tokens")
    .values({ address, chain_id: chainId, reason })
    .onConflict((oc) => oc.expression(sql`address, coalesce(chain_id, 0)`).doUpdateSet({ reason }))
    .execute();
}

/** Removes exactly that block (global, or that chain's); returns whether there was one. */
export async function unblockToken(address: string, chainId: number | null): Promise<boolean> {
  const result = await db()
    .deleteFrom("blocked_tokens")
    .where("address", "=", address)
    .where("chain_id", chainId === null ? "is" : "=", chainId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
