// Partner API keys: random, shown once, stored as a SHA-256 hash beside a visible prefix. Each carries scopes, an
// optional expiry and optional limits of its own; a rotation gives it a new key while the old one works for a grace
// period. The key's row id is the partner everywhere (deploys, webhooks, quotas), so rotation keeps the row.
import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { db, type Database } from "@/db";
import type { DB } from "@/db/types";
import type { ApiKeyScope } from "@/db/tables/partners";
import { config } from "@/lib/core/config";
import { isEvmAddress } from "@/lib/core/evm";
import {
  type ApiKeyRow,
  findApiKeyById,
  findApiKeyDeploysPerDay,
  findApiKeyRewardAddress,
  findApiKeys,
  findLiveApiKeyByHash,
  findLiveApiKeyIdByPrefix,
  insertApiKey,
  lockApiKey,
  revokeApiKeyById,
  revokeApiKeyByPrefix,
  rotateApiKeyHash,
  setRewardAddressByPrefix,
  touchApiKeyLastUsed,
} from "./queries";

export type { ApiKeyScope } from "@/db/tables/partners";
export type { ApiKeyRow } from "./queries";

/** Every scope, in the order listings show them; keys made before scopes existed hold all of them. */
export const API_KEY_SCOPES = ["read", "deploy", "index", "webhooks"] as const satisfies readonly ApiKeyScope[];

/** How long a rotated key keeps working unless the rotation says otherwise, and the longest it may. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;
export const MAX_ROTATION_GRACE_SECONDS = 30 * 24 * 3600;

const PREFIX_LENGTH = 12; // "tlk_" + 8 characters: enough to tell keys apart in a listing

export function hashApiKey(key: string): string {
  return createHash("sha256").update(config().API_KEY_PEPPER).update(key).digest("hex");
}

function newKey(): { key: string; prefix: string; key_hash: string } {
  const key = `tlk_${randomBytes(24).toString("base64url")}`;
  return { key, prefix: key.slice(0, PREFIX_LENGTH), key_hash: hashApiKey(key) };
}

export type ApiKeySettings = {
  owner?: string | null;
  scopes?: ApiKeyScope[];
  expiresAt?: Date | null;
  requestsPerMinute?: number | null;
  deploysPerDay?: number | null;
  rewardAddress?: string | null;
};

/** A new key; the key itself is in the answer only, never stored. Scopes default to all of them. */
export async function createApiKey(
  name: string,
  settings: ApiKeySettings = {},
): Promise<{ key: string; prefix: string; id: number; row: ApiKeyRow }> {
  const { rewardAddress } = settings;
  if (rewardAddress != null && !isEvmAddress(rewardAddress)) throw new Error(`not an address: ${rewardAddress}`);
  const { key, prefix, key_hash } = newKey();
  const row = await insertApiKey(db(), {
    name,
    prefix,
    key_hash,
    owner: settings.owner ?? null,
    scopes: settings.scopes ? [...new Set(settings.scopes)] : undefined,
    expires_at: settings.expiresAt ?? null,
    requests_per_minute: settings.requestsPerMinute ?? null,
    deploys_per_day: settings.deploysPerDay ?? null,
    reward_address: rewardAddress?.toLowerCase() ?? null,
  });
  return { key, prefix, id: row.id, row };
}

/**
 * A new key for the live key `id`; the one it replaces keeps working for `graceSeconds` (0: it ends now). A key
 * still in grace from an earlier rotation ends now. Undefined when the key is revoked or unknown.
 */
export async function rotateApiKey(
  id: number,
  graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS,
): Promise<{ key: string; row: ApiKeyRow } | undefined> {
  const { key, prefix, key_hash } = newKey();
  const row = await rotateApiKeyHash(db(), id, { key_hash, prefix }, new Date(Date.now() + graceSeconds * 1000));
  return row && { key, row };
}

/** The live key's id by its current prefix (the CLI names keys by prefix). */
export function findApiKeyIdByPrefix(prefix: string): Promise<number | undefined> {
  return findLiveApiKeyIdByPrefix(db(), prefix);
}

/** Revokes by prefix (current, or previous while in grace); false when no live key has it. */
export async function revokeApiKey(prefix: string): Promise<boolean> {
  return revokeApiKeyByPrefix(db(), prefix, new Date());
}

/** Revokes by id, at once for the current key and one in grace; an already revoked key keeps its time. */
export function revokeApiKeyOfId(id: number): Promise<ApiKeyRow | undefined> {
  return revokeApiKeyById(db(), id, new Date());
}

/** Keys in id order; every key when no page is asked for (the CLI). */
export function listApiKeys(page: { afterId?: number; limit?: number } = {}): Promise<ApiKeyRow[]> {
  return findApiKeys(db(), page);
}

export function findApiKey(id: number): Promise<ApiKeyRow | undefined> {
  return findApiKeyById(db(), id);
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

/** The partner's own deploys a day, or null when DEPLOY_DAILY_LIMIT applies. */
export function findPartnerDeploysPerDay(db: Database, partnerId: number): Promise<number | null> {
  return findApiKeyDeploysPerDay(db, partnerId);
}

/** Locks the partner's key until the transaction ends, so a partner's concurrent writes elsewhere run one at a time. */
export async function lockPartner(trx: Transaction<DB>, partnerId: number): Promise<void> {
  return lockApiKey(trx, partnerId);
}

/** Whether `key` has the form of an issued key (`tlk_` + 32 characters); no other form is ever looked up. */
export const isApiKeyForm = (key: string): boolean => /^tlk_[A-Za-z0-9_-]{32}$/.test(key);

export type PartnerKey = { id: number; name: string; scopes: ApiKeyScope[]; requestsPerMinute: number | null };

/** The partner a presented key belongs to, or null when it is unknown, revoked, expired, or rotated past its grace. */
export async function findPartnerByKey(key: string): Promise<PartnerKey | null> {
  if (!isApiKeyForm(key)) return null;
  const now = new Date();
  const row = await findLiveApiKeyByHash(db(), hashApiKey(key), now);
  if (!row) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
    // Bookkeeping only, at most once a minute per key: a failure here must not fail the request.
    void touchApiKeyLastUsed(db(), row.id, now).catch(() => {});
  }
  return { id: row.id, name: row.name, scopes: row.scopes, requestsPerMinute: row.requests_per_minute };
}
