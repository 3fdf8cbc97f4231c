// Queries on api_keys: partners' keys (stored hashed, beside a visible prefix), what a partner configured, and what
// an operator set (scopes, expiry, limits, the hash a rotation replaced).
import type { Selectable } from "kysely";
import type { Database } from "@/db";
import type { ApiKeysTable } from "@/db/tables/core";
import type { ApiKeyScope } from "@/db/tables/partners";

export type ApiKeyRow = Omit<Selectable<ApiKeysTable>, "key_hash" | "previous_key_hash">;

/** Every column but the hashes: what a listing shows. */
const VISIBLE = [
  "id",
  "name",
  "owner",
  "prefix",
  "scopes",
  "expires_at",
  "requests_per_minute",
  "deploys_per_day",
  "previous_prefix",
  "previous_expires_at",
  "reward_address",
  "created_at",
  "revoked_at",
  "last_used_at",
] as const;

export type NewApiKey = {
  name: string;
  prefix: string;
  key_hash: string;
  owner?: string | null;
  scopes?: ApiKeyScope[];
  expires_at?: Date | null;
  requests_per_minute?: number | null;
  deploys_per_day?: number | null;
  reward_address?: string | null;
};

export async function insertApiKey(db: Database, key: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto("api_keys").values(key).returning(VISIBLE).executeTakeFirstOrThrow();
}

/** Revokes the active key with the prefix (its current or, in grace, its previous one); false when there is none. */
export async function revokeApiKeyByPrefix(db: Database, prefix: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: at })
    .where((eb) => eb.or([eb("prefix", "=", prefix), eb("previous_prefix", "=", prefix)]))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes the key by id; the row as it now is, or undefined when there is no such key. */
export function revokeApiKeyById(db: Database, id: number, at: Date) {
  return db
    .updateTable("api_keys")
    .set((eb) => ({ revoked_at: eb.fn.coalesce("revoked_at", eb.val(at)) }))
    .where("id", "=", id)
    .returning(VISIBLE)
    .executeTakeFirst();
}

/** Keys after id `afterId` in id order, revoked ones included, at most `limit`; never the hashes. */
export function findApiKeys(db: Database, options: { afterId?: number; limit?: number } = {}) {
  let query = db.selectFrom("api_keys").select(VISIBLE).orderBy("id");
  if (options.afterId !== undefined) query = query.where("id", ">", options.afterId);
  if (options.limit !== undefined) query = query.limit(options.limit);
  return query.execute();
}

export function findApiKeyById(db: Database, id: number) {
  return db.selectFrom("api_keys").select(VISIBLE).where("id", "=", id).executeTakeFirst();
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

/**
 * The live key with the hash at `at`: not revoked, not expired, and the hash either its current one or the one a
 * rotation replaced, still in its grace period.
 */
export function findLiveApiKeyByHash(db: Database, keyHash: string, at: Date) {
  return db
    .selectFrom("api_keys")
    .select(["id", "name", "scopes", "requests_per_minute", "last_used_at"])
    .where((eb) =>
      eb.or([
        eb("key_hash", "=", keyHash),
        eb.and([eb("previous_key_hash", "=", keyHash), eb("previous_expires_at", ">", at)]),
      ]),
    )
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]))
    .executeTakeFirst();
}

/**
 * Gives the live key `id` a new hash and prefix; the old ones work until `graceUntil` (a previous key still in grace
 * from an earlier rotation ends now). Undefined when the key is revoked or unknown.
 */
export function rotateApiKeyHash(
  db: Database,
  id: number,
  next: { key_hash: string; prefix: string },
  graceUntil: Date,
) {
  return db
    .updateTable("api_keys")
    .set((eb) => ({
      previous_key_hash: eb.ref("key_hash"),
      previous_prefix: eb.ref("prefix"),
      previous_expires_at: graceUntil,
      key_hash: next.key_hash,
      prefix: next.prefix,
    }))
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .returning(VISIBLE)
    .executeTakeFirst();
}

/** The live key's id by its current prefix. */
export async function findLiveApiKeyIdByPrefix(db: Database, prefix: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("api_keys")
    .select("id")
    .where("prefix", "=", prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row?.id;
}

export async function touchApiKeyLastUsed(db: Database, id: number, at: Date): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
}

/** The key's reward address (lowercase), null when it has none, undefined when there is no such key. */
export async function findApiKeyRewardAddress(db: Database, id: number): Promise<string | null | undefined> {
  const row = await db.selectFrom("api_keys").select("reward_address").where("id", "=", id).executeTakeFirst();
  return row?.reward_address;
}

/** The key's own deploys a day, null when the default applies (or there is no such key). */
export async function findApiKeyDeploysPerDay(db: Database, id: number): Promise<number | null> {
  const row = await db.selectFrom("api_keys").select("deploys_per_day").where("id", "=", id).executeTakeFirst();
  return row?.deploys_per_day ?? null;
}

/** Locks the key's row until the transaction ends: serialises a partner's writes elsewhere. */
export async function lockApiKey(db: Database, id: number): Promise<void> {
  await db.selectFrom("api_keys").select("id").where("id", "=", id).forUpdate().execute();
}
