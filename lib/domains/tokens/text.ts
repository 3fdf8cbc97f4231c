// The bounds of a token's stored text, and the one guard every writer of a tokens row goes through
// (upsertIndexedTokenRow). Chain text is whatever the deployer sent: see docs/token-deploy.md (Chain text).
import type { Insertable } from "kysely";
import type { TokensTable } from "@/db/tables/core";
import { storableJson, storableText } from "@/lib/core/text";

/** UTF-16 units (items for lists) kept of each text a token carries; longer text is cut, longer lists too. */
export const TOKEN_TEXT_LIMITS = {
  name: 256,
  symbol: 64,
  url: 2048,
  description: 10_000,
  /** A metadata or context JSON longer than this is not read at all. */
  json: 100_000,
  /** socialMediaUrls and auditUrls. */
  listItems: 50,
  /** Short members: a link's platform, the context's interface, platform, id and messageId. */
  short: 256,
} as const;

/** URL schemes a stored link or image may have: any other (javascript:, data:, file:) is dropped. */
const SAFE_SCHEME = /^(?:https?|ipfs|ar):/i;
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A link or image URL as stored: storable text, and "" when it names a scheme that is not a web or IPFS one. */
export function storableUrl(value: unknown): string {
  const url = storableText(value, TOKEN_TEXT_LIMITS.url).trim();
  return ANY_SCHEME.test(url) && !SAFE_SCHEME.test(url) ? "" : url;
}

const TEXT_COLUMNS = {
  name: TOKEN_TEXT_LIMITS.name,
  symbol: TOKEN_TEXT_LIMITS.symbol,
  img_url: TOKEN_TEXT_LIMITS.url,
  cast_hash: TOKEN_TEXT_LIMITS.short,
  pair: TOKEN_TEXT_LIMITS.short,
} as const;
const JSON_COLUMNS = ["metadata", "social_context", "pool_config", "extensions", "tags"] as const;

/** The row with every text column storable and every JSON column accepted by jsonb, whoever built it. */
export function storableTokenRow(row: Insertable<TokensTable>): Insertable<TokensTable> {
  const out: Record<string, unknown> = { ...row };
  for (const [column, max] of Object.entries(TEXT_COLUMNS)) {
    const value = row[column as keyof typeof TEXT_COLUMNS];
    if (typeof value === "string") out[column] = storableText(value, max);
  }
  for (const column of JSON_COLUMNS) {
    const value = row[column];
    if (typeof value === "string") out[column] = storableJson(value);
  }
  return out as Insertable<TokensTable>;
}
