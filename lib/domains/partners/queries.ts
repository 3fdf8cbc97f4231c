// Queries on api_keys: partners' keys (stored hashed, beside a visible prefix) and what a partner configured.
import type { Database } from "@/db";

export async function insertApiKey(
  db: Database,
  key: { name: string; prefix: string; key_hash: string },
): Promise<number> {
  const row = await db.insertInto("api_keys").values(key).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** Revokes the active key with the prefix; false when there is none. */
export async function revokeApiKeyByPrefix(db: Database, prefix: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: at })
    .where("prefix", "=", prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every key, revoked ones included, oldest first; never the hash. */
export function findAllApiKeys(db: Database) {
  return db
    .selectFrom("api_keys")
    .select(["id", "name", "prefix", "created_at", "revoked_at", "last_used_at"])
    .orderBy("id")
    .execute();
}

/** Sets the reward address of the active key with the prefix; false when there is none. */
export async function setRewardAddressByPrefix(db: Database, prefix: string, address: string | null): Promise<boolean> {
  const result = await db
    .updateTable("api_keys")
    .set({ reward_address: address })
    .where("prefix", "=", prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The active key with the hash. */
export function findActiveApiKeyByHash(db: Database, keyHash: string) {
  return db
    .selectFrom("api_keys")
    .select(["id", "name", "last_used_at"])
    .where("key_hash", "=", keyHash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}

export async function touchApiKeyLastUsed(db: Database, id: number, at: Date): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
}

/** The key's reward address (lowercase), null when it has none, undefined when there is no such key. */
export async function findApiKeyRewardAddress(db: Database, id: number): Promise<string | null | undefined> {
  const row = await db.selectFrom("api_keys").select("reward_address").where("id", "=", id).executeTakeFirst();
  return row?.reward_address;
}

/** Locks the key's row until the transaction ends: serialises a partner's writes elsewhere. */
export async function lockApiKey(db: Database, id: number): Promise<void> {
  await db.selectFrom("api_keys").select("id").where("id", "=", id).forUpdate().execute();
}
