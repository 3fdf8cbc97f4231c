// The user object: the profile provider's (Neynar v2) user shape, as stored in users.profile; and the
// users row made from a provider object.
import type { Selectable } from "kysely";
import type { UsersTable } from "@/db/tables/core";
import type { NeynarUser } from "@/lib/platform/neynar/schemas";
import { checksum } from "@/lib/core/evm";
import { EVM_ADDRESS } from "@/lib/core/evm";

export type UserRow = Selectable<UsersTable>;

/** The provider object as a users row (addresses lowercase; X/Twitter handle from verified accounts). */
export function rowFromProvider(user: NeynarUser, fetchedAt: Date): Omit<UserRow, "following_fetched_at"> {
  const eth = [...(user.verified_addresses?.eth_addresses ?? []), ...(user.verifications ?? [])]
    .filter((a) => EVM_ADDRESS.test(a))
    .map((a) => a.toLowerCase());
  const twitter = user.verified_accounts?.find((a) => /^(x|twitter)$/i.test(a.platform ?? ""))?.username;
  return {
    fid: user.fid,
    username: user.username ?? null,
    display_name: user.display_name ?? null,
    pfp_url: user.pfp_url ?? null,
    custody_address: user.custody_address?.toLowerCase() ?? null,
    verified_addresses: [...new Set(eth)],
    twitter_username: twitter ?? null,
    neynar_score: user.score ?? user.experimental?.neynar_user_score ?? null,
    follower_count: user.follower_count ?? 0,
    following_count: user.following_count ?? 0,
    profile: user as Record<string, unknown>,
    fetched_at: fetchedAt,
  };
}

/**
 * Stored provider objects are served as the provider gave them; rows that only have columns
 * (seeded or indexed users) are given the same shape from those columns.
 */
export function toUserObject(row: UserRow): Record<string, unknown> {
  const stored = row.profile as Record<string, unknown>;
  if (stored && typeof stored === "object" && stored.fid === row.fid) return stored;
  const eth = row.verified_addresses.map((a) => checksum(a));
  return {
    object: "user",
    fid: row.fid,
    username: row.username,
    display_name: row.display_name,
    pfp_url: row.pfp_url,
    custody_address: checksum(row.custody_address),
    profile: { bio: { text: "" } },
    follower_count: row.follower_count,
    following_count: row.following_count,
    verifications: eth,
    verified_addresses: { eth_addresses: eth, sol_addresses: [] },
    verified_accounts: row.twitter_username ? [{ platform: "x", username: row.twitter_username }] : [],
    score: row.neynar_score,
    experimental: { neynar_user_score: row.neynar_score },
  };
}
