// The user object: the profile provider's (Neynar v2) user shape, as stored in users.profile; and the
// users row made from a provider object.
import { sql, type Selectable } from "kysely";
import type { UsersTable } from "@/db/tables/core";
import type { NeynarUser } from "@/lib/platform/neynar/schemas";
import type { z } from "zod";
import { checksum, EVM_ADDRESS } from "@/lib/core/evm";
import { JsonText } from "@/lib/core/json";
import type { userObject } from "./responses";

/** A profile as answers show it: the provider's user object. */
export type UserObject = z.input<typeof userObject>;

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
 * (seeded or indexed users) are given the same shape from those columns. Its members come scalars first, then
 * the addresses, so that PostgreSQL can write the first run as JSON text (userJson).
 */
export function toUserObject(row: UserRow): UserObject {
  const stored = row.profile as Record<string, unknown>;
  // A provider object, stored by rowFromProvider as the provider sent it.
  if (stored && typeof stored === "object" && stored.fid === row.fid) return stored as UserObject;
  const eth = row.verified_addresses.map((a) => checksum(a));
  return {
    object: "user",
    fid: row.fid,
    username: row.username,
    display_name: row.display_name,
    pfp_url: row.pfp_url,
    profile: { bio: { text: "" } },
    follower_count: row.follower_count,
    following_count: row.following_count,
    verified_accounts: row.twitter_username ? [{ platform: "x", username: row.twitter_username }] : [],
    score: row.neynar_score,
    experimental: { neynar_user_score: row.neynar_score },
    custody_address: checksum(row.custody_address),
    verifications: eth,
    verified_addresses: { eth_addresses: eth, sol_addresses: [] },
  };
}

// The same object written by PostgreSQL, for answers of many users (get-multiple-users-by-fid): parsing each
// row's arrays and dates and serialising 100 objects in Node costs more than the query. A stored provider object
// is its jsonb text; for the others PostgreSQL writes the scalars and Node splices in the checksummed addresses.
const SERVED_AS_STORED = sql`jsonb_typeof(u.profile) = 'object' and u.profile -> 'fid' = to_jsonb(u.fid)`;
const SCORE = sql`case when u.neynar_score in ('NaN', 'Infinity', '-Infinity') then null else u.neynar_score end`;
const COLUMNS_JSON = sql<string>`(select row_to_json(x)::text from (
  select 'user' as object, u.fid, u.username, u.display_name, u.pfp_url, '{"bio":{"text":""}}'::json as profile,
    u.follower_count, u.following_count,
    case when u.twitter_username is null or u.twitter_username = '' then '[]'::json
      else json_build_array(json_build_object('platform', 'x', 'username', u.twitter_username)) end as verified_accounts,
    ${SCORE} as score, json_build_object('neynar_user_score', ${SCORE}) as experimental) x)`;

/** What a query over `users as u` selects for userJson (in a select list, or joined into a raw one). */
export const userJsonColumns = [
  sql<string | null>`case when ${SERVED_AS_STORED} then u.profile::text end`.as("json_stored"),
  sql<string | null>`case when ${SERVED_AS_STORED} then null else ${COLUMNS_JSON} end`.as("json_head"),
  sql<string | null>`u.custody_address`.as("custody_address"),
  sql<string>`array_to_string(u.verified_addresses, ',')`.as("verified"),
] as const;

export type UserJsonRow = Pick<UserRow, "custody_address"> & {
  /** the stored provider object's text, when it is served as stored */
  json_stored: string | null;
  /** otherwise the column-built object's scalars */
  json_head: string | null;
  /** the verified addresses, comma-separated */
  verified: string;
};

const jsonAddress = (address: string) => `"${checksum(address)}"`;

/** The JSON text of toUserObject(row), from the columns of userJsonColumns. */
export function userJson(row: UserJsonRow): JsonText<UserObject> {
  if (row.json_stored !== null) return new JsonText(row.json_stored);
  const eth = row.verified ? `[${row.verified.split(",").map(jsonAddress).join(",")}]` : "[]";
  const custody = row.custody_address ? jsonAddress(row.custody_address) : "null";
  return new JsonText(
    `${row.json_head!.slice(0, -1)},"custody_address":${custody},"verifications":${eth}` +
      `,"verified_addresses":{"eth_addresses":${eth},"sol_addresses":[]}}`,
  );
}
