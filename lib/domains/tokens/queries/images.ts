// The statement behind the explorer's picture proxy: the img_url a token names.
import type { Database } from "@/db";

/** The stored img_url of the first token at this address (as stored: lowercase hex) on this chain. */
export async function findTokenImageUrl(db: Database, address: string, chainId: number): Promise<string | null> {
  const row = await db
    .selectFrom("tokens")
    .select("img_url")
    .where("contract_address", "=", address)
    .where("chain_id", "=", chainId)
    .orderBy("id")
    .executeTakeFirst();
  return row?.img_url ?? null;
}
