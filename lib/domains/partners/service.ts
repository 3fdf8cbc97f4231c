// The key API as operators and partners call it: create, list, rotate and revoke keys, and read a key's usage.
import type { z } from "zod";
import { checksum } from "@/lib/core/evm";
import { conflict, notFound } from "@/lib/core/errors";
import { type ApiKeyRow, createApiKey, findApiKey, listApiKeys, revokeApiKeyOfId, rotateApiKey } from "./apikeys";
import {
  type apiKeyAnswer,
  type createKeyBody,
  type listKeysQuery,
  nextKeysCursor,
  type rotateKeyBody,
} from "./schemas";
import { readKeyUsage } from "./usage";

type ApiKeyAnswer = z.infer<typeof apiKeyAnswer>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function apiKeyView(row: ApiKeyRow, now = Date.now()): ApiKeyAnswer {
  const expired = row.expires_at !== null && row.expires_at.getTime() <= now;
  const inGrace = row.previous_expires_at !== null && row.previous_expires_at.getTime() > now && !row.revoked_at;
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    prefix: row.prefix,
    status: row.revoked_at ? "revoked" : expired ? "expired" : "active",
    scopes: row.scopes,
    expiresAt: iso(row.expires_at),
    requestsPerMinute: row.requests_per_minute,
    deploysPerDay: row.deploys_per_day,
    rewardAddress: checksum(row.reward_address),
    previousPrefix: inGrace ? row.previous_prefix : null,
    previousExpiresAt: inGrace ? iso(row.previous_expires_at) : null,
    createdAt: row.created_at.toISOString(),
    revokedAt: iso(row.revoked_at),
    lastUsedAt: iso(row.last_used_at),
  };
}

export async function createKey(body: z.infer<typeof createKeyBody>) {
  const { key, row } = await createApiKey(body.name, {
    ...body,
    expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
  });
  return { ...apiKeyView(row), key };
}

export async function listKeys(query: z.infer<typeof listKeysQuery>) {
  const rows = await listApiKeys({ afterId: query.cursor, limit: query.limit });
  return {
    keys: rows.map((row) => apiKeyView(row)),
    nextCursor: rows.length === query.limit ? nextKeysCursor(rows.at(-1)!.id) : null,
  };
}

async function existingKey(id: number): Promise<ApiKeyRow> {
  const row = await findApiKey(id);
  if (!row) throw notFound(`no API key ${id}`);
  return row;
}

export async function getKey(id: number) {
  return apiKeyView(await existingKey(id));
}

export async function rotateKey(id: number, body: z.infer<typeof rotateKeyBody>) {
  const rotated = await rotateApiKey(id, body.graceSeconds);
  if (!rotated) {
    await existingKey(id);
    throw conflict(`API key ${id} is revoked; create a new one`);
  }
  return { ...apiKeyView(rotated.row), key: rotated.key };
}

export async function revokeKey(id: number) {
  const row = await revokeApiKeyOfId(id);
  if (!row) throw notFound(`no API key ${id}`);
  return apiKeyView(row);
}

export async function keyUsage(id: number, days?: number) {
  const row = await existingKey(id);
  return { keyId: row.id, name: row.name, lastUsedAt: iso(row.last_used_at), days: await readKeyUsage(id, days) };
}
