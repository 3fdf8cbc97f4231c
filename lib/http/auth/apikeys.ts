// Partner API keys: random, shown once, stored as a SHA-256 hash beside a visible prefix.
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/db";
import { config } from "@/lib/core/config";

const PREFIX_LENGTH = 12; // "tlk_" + 8 characters: enough to tell keys apart in a listing

export function hashApiKey(key: string): string {
  return createHash("sha256").update(config().API_KEY_PEPPER).update(key).digest("hex");
}

export async function createApiKey(name: string): Promise<{ key: string; prefix: string; id: number }> {
  const key = `tlk_${randomBytes(24).toString("base64url")}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  const row = await db()
    .insertInto("api_keys")
    .values({ name, prefix, key_hash: hashApiKey(key) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { key, prefix, id: row.id };
}

export async function revokeApiKey(prefix: string): Promise<boolean> {
  const result = await db()
    .updateTable("api_keys")
    .set({ revoked_at: new Date() })
    .where("prefix", "=", prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listApiKeys() {
  return db()
    .selectFrom("api_keys")
    .select(["id", "name", "prefix", "created_at", "revoked_at", "last_used_at"])
    .orderBy("id")
    .execute();
}

/**
 * Where a partner's interface share of legacy deploy shapes goes (lib/domains/launch/deploy/mapping.ts); null sends it to
 * the platform. Returns false when no active key has the prefix.
 */
export async function setApiKeyRewardAddress(prefix: string, address: string | null): Promise<boolean> {
  if (address !== null && !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not an address: ${address}`);
  const result = await db()
    .updateTable("api_keys")
    .set({ reward_address: address?.toLowerCase() ?? null })
    .where("prefix", "=", prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The partner a presented key belongs to, or null when it is unknown or revoked. */
export async function findPartnerByKey(key: string): Promise<{ id: number; name: string } | null> {
  if (!/^tlk_[A-Za-z0-9_-]{32}$/.test(key)) return null;
  const row = await db()
    .selectFrom("api_keys")
    .select(["id", "name", "last_used_at"])
    .where("key_hash", "=", hashApiKey(key))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    // Bookkeeping only: a failure here must not fail the request.
    void db().updateTable("api_keys").set({ last_used_at: new Date() }).where("id", "=", row.id).execute().catch(() => {});
  }
  return { id: row.id, name: row.name };
}
