// Single-token lookups: by contract address (EVM or Solana mint), by pool address or v4 pool id, and
// many pools at once, as token objects (the statements are in queries/lookups.ts).
import { db } from "@/db";
import { displayAddress, EVM_ADDRESS } from "@/lib/core/evm";
import { notFound } from "@/lib/core/errors";
import { storedUserObjects } from "@/lib/domains/users/service";
import type { z } from "zod";
import { JsonText } from "@/lib/core/json";
import type { UserObject } from "@/lib/domains/users/serialize";
import type { tokenByAddressResponse, tokensByPoolsResponse } from "./responses";
import {
  findTokenByAddress,
  findLegacyTokenLockers,
  findTokenChainId,
  findTokenOnChain,
  findTokenRowsByPools,
  tokensByPoolsQuery,
} from "./queries/lookups";
import { jsonString, tokenJson, toTokenObject, type TokenObject, type TokenRow } from "./serialize";

/** Rows by pool, one query whatever the count. */
export async function tokenRowsByPools(pools: string[], chainId?: number): Promise<Map<string, TokenRow>> {
  const unique = [...new Set(pools)];
  if (unique.length === 0) return new Map();
  const rows = await findTokenRowsByPools(db(), unique, chainId);
  return new Map(rows.map((row) => [row.pool_address!, row]));
}

/** The stored row of a lowercase contract address on any chain (the default chain's first), or undefined. */
export function tokenRowByAddress(address: string): Promise<TokenRow | undefined> {
  return findTokenByAddress(db(), address);
}

/** Which of `lockers` (lowercase) belong to a v0 or v1 token on the chain (the legacy claim indexer keeps their claims). */
export function legacyTokenLockers(chainId: number, lockers: string[]): Promise<string[]> {
  return findLegacyTokenLockers(db(), chainId, [...new Set(lockers)]);
}

/** `{ data: Token }`, or `{}` when no token has this pool (COMPAT: the member is absent). */
export async function tokenByPool(pool: string): Promise<{ data?: TokenObject }> {
  const row = (await tokenRowsByPools([pool])).get(pool);
  return row ? { data: toTokenObject(row) } : {};
}

/**
 * `{ data: { "<lowercase pool>": Token } }` for the pools that have a token, put together from the JSON text
 * the database writes (tokenJson): for 100 tokens, about 0.5 ms less than building and serialising the objects.
 */
export async function tokensByPools(pools: string[]): Promise<JsonText<z.input<typeof tokensByPoolsResponse>>> {
  const unique = [...new Set(pools)];
  const rows = unique.length === 0 ? [] : await tokensByPoolsQuery(db(), unique).execute();
  let json = '{"data":{';
  for (let i = 0; i < rows.length; i++)
    json += `${i ? "," : ""}${jsonString(rows[i].pool_address!)}:${tokenJson(rows[i]).text}`;
  return new JsonText(`${json}}}`);
}

/** The platform's member for each social platform a token's metadata names (its `platform`, any case). */
const SOCIAL_MEMBERS = {
  x: "twitterUrl",
  twitter: "twitterUrl",
  website: "websiteUrl",
  web: "websiteUrl",
  telegram: "telegramUrl",
  discord: "discordUrl",
  farcaster: "farcasterUrl",
  warpcast: "farcasterUrl",
} as const;
type SocialMember = (typeof SOCIAL_MEMBERS)[keyof typeof SOCIAL_MEMBERS];
const SOCIAL_URL_MEMBERS = [...new Set(Object.values(SOCIAL_MEMBERS))];

/** `twitterUrl`, `websiteUrl`, … from the metadata's socialMediaUrls: the first URL of each, else null. */
function socialUrls(metadata: unknown): Record<SocialMember, string | null> {
  const out = Object.fromEntries(SOCIAL_URL_MEMBERS.map((m) => [m, null])) as Record<SocialMember, string | null>;
  const list = (metadata as { socialMediaUrls?: unknown } | null)?.socialMediaUrls;
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    const { platform, url } = (entry ?? {}) as Record<string, unknown>;
    const member =
      typeof platform === "string" ? SOCIAL_MEMBERS[platform.toLowerCase() as keyof typeof SOCIAL_MEMBERS] : undefined;
    if (member && typeof url === "string" && url && out[member] === null) out[member] = url;
  }
  return out;
}

/** The requester's verified address that sent the deployment, else their first one; checksummed. */
function verifiedAddress(user: UserObject | undefined, msgSender: string | null): string | null {
  const eth = (user?.verified_addresses as { eth_addresses?: unknown } | undefined)?.eth_addresses;
  if (!Array.isArray(eth)) return null;
  const valid = eth.filter((a): a is string => typeof a === "string" && EVM_ADDRESS.test(a));
  const sender = valid.find((a) => a.toLowerCase() === msgSender?.toLowerCase());
  return displayAddress(sender ?? valid[0] ?? null) ?? null;
}

/** The chain a token address is indexed on (the default chain first), or null when it is not indexed. */
export function tokenChainId(address: string): Promise<number | null> {
  return findTokenChainId(db(), address.toLowerCase());
}

/** The first token of a contract or pool address (v4 pool ids too) on one chain, with the columns its rewards need. */
export function tokenOnChain(key: { by: "address" | "pool"; value: string; chainId: number }) {
  return findTokenOnChain(
    db(),
    key.by === "address" ? "contract_address" : "pool_address",
    key.value.toLowerCase(),
    key.chainId,
  );
}

/**
 * GET /api/get-token-by-address: the token, its creator's profile (`related.user`, stored profiles only),
 * the social URLs of its metadata under the platform's names (`twitterUrl`, `websiteUrl`, …) and the
 * requester's verified address (`farcasterVerifiedEthAddress`, checksummed). `address` is lowercase hex or a base58 mint as given.
 */
export async function tokenByAddress(address: string): Promise<z.input<typeof tokenByAddressResponse>> {
  const row = await findTokenByAddress(db(), address);
  if (!row) throw notFound("no token has this address");
  const user =
    row.requestor_fid === null ? undefined : (await storedUserObjects([row.requestor_fid])).get(row.requestor_fid);
  return {
    data: {
      ...toTokenObject(row, { user: user ?? null }),
      ...socialUrls(row.metadata),
      farcasterVerifiedEthAddress: verifiedAddress(user, row.msg_sender),
    },
  };
}
