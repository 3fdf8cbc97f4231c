// Partner API keys: random, shown once, stored as a SHA-256 hash beside a visible prefix.
import { createHash, randomBytes } from "node:crypto";
import { db, type Database } from "@/db";
import { config } from "@/lib/core/config";
import {
  findActiveApiKeyByHash,
  findAllApiKeys,
  findApiKeyRewardAddress,
  insertApiKey,
  lockApiKey,
  revokeApiKeyByPrefix,
  setRewardAddressByPrefix,
  touchApiKeyLastUsed,
} from "./queries";
import { isEvmAddress } from "@/lib/core/evm";

const PREFIX_LENGTH = 12; // "tlk_" + 8 characters: enough to tell keys apart in a listing

export function hashApiKey(key: string): string {
  return createHash("sha256").update(config().API_KEY_PEPPER).update(key).digest("hex");
}

export async function createApiKey(name: string): Promise<{ key: string; prefix: string; id: number }> {
  const key = `tlk_${randomBytes(24).toString("base64url")}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  const id = await insertApiKey(db(), { name, prefix, key_hash: hashApiKey(key) });
  return { key, prefix, id };
}

export async function revokeApiKey(prefix: string): Promise<boolean> {
  return revokeApiKeyByPrefix(db(), prefix, new Date());
}

export async function listApiKeys() {
  return findAllApiKeys(db());
}

/**
 * Where a partner's interface share of legacy deploy shapes goes (lib/domains/launch/deploy/mapping.ts); null sends it to
 * the platform. Returns false when no active key has the prefix.
 */
export async function setApiKeyRewardAddress(prefix: string, address: string | null): Promise<boolean> {
  if (address !== null && !isEvmAddress(address)) throw new Error(`not an address: ${address}`);
  return setRewardAddressByPrefix(db(), prefix, address?.toLowerCase() ?? null);
}

/** The partner's reward address (lowercase), or null when it has none (or there is no such partner). */
export async function findPartnerRewardAddress(partnerId: number): Promise<string | null> {
  return (await findApiKeyRewardAddress(db(), partnerId)) ?? null;
}

/** Locks the partner's key until the transaction ends, so a partner's concurrent writes elsewhere run one at a time. */
export async function lockPartner(trx: Database, partnerId: number): Promise<void> {
  return lockApiKey(trx, partnerId);
}

/** Whether `key` has the form of an issued key (`tlk_` + 32 characters); no other form is ever looked up. */
export const isApiKeyForm = (key: string): boolean => /^tlk_[A-Za-z0-9_-]{32}$/.test(key);

/** The partner a presented key belongs to, or null when it is unknown or revoked. */
export async function findPartnerByKey(key: string): Promise<{ id: number; name: string } | null> {
  if (!isApiKeyForm(key)) return null;
  const row = await findActiveApiKeyByHash(db(), hashApiKey(key));
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    // Bookkeeping only: a failure here must not fail the request.
    void touchApiKeyLastUsed(db(), row.id, new Date()).catch(() => {});
  }
  return { id: row.id, name: row.name };
}
