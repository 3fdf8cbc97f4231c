// The user object: the profile provider's (Neynar v2) user shape, as stored in users.profile.
import type { Selectable } from "kysely";
import type { UsersTable } from "@/db/tables/core";
import { checksum } from "@/lib/core/input";

export type UserRow = Selectable<UsersTable>;

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
