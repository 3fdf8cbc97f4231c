// Queries of the users domain: stored profiles (users), their addresses (user_addresses) and follows.
import { sql } from "kysely";
import type { Database } from "@/db";
import type { NeynarUser } from "@/lib/platform/neynar/schemas";
import { searchFold } from "@/lib/domains/users/search-fold";
import { rowFromProvider, userJsonColumns, type UserJsonRow, type UserRow } from "@/lib/domains/users/serialize";

export async function loadUsersByFids(db: Database, fids: number[]): Promise<Map<number, UserRow>> {
  if (fids.length === 0) return new Map();
  const rows = await db.selectFrom("users").selectAll().where("fid", "in", fids).execute();
  return new Map(rows.map((r) => [r.fid, r]));
}

/**
 * The query of get-multiple-users-by-fid (and the benchmark's database floor): each user's JSON text (userJson),
 * and whether it was fetched within the last `ttlSeconds`.
 */
export const userJsonByFidsQuery = (db: Database, fids: number[], ttlSeconds: number) =>
  db
    .selectFrom("users as u")
    .select([
      "u.fid",
      sql<boolean>`u.fetched_at > now() - make_interval(secs => ${ttlSeconds})`.as("fresh"),
      ...userJsonColumns,
    ])
    .where("u.fid", "in", fids);

export async function loadUserJsonByFids(db: Database, fids: number[], ttlSeconds: number) {
  const rows = fids.length === 0 ? [] : await userJsonByFidsQuery(db, fids, ttlSeconds).execute();
  return new Map(rows.map((r) => [r.fid, r]));
}

/** Users holding the address (verified or custody), verified holders first, then the most followed. */
export async function loadUsersByAddress(db: Database, address: string): Promise<UserRow[]> {
  return db
    .selectFrom("user_addresses as ua")
    .innerJoin("users as u", "u.fid", "ua.fid")
    .selectAll("u")
    .where("ua.address", "=", address)
    .orderBy(sql`${address} = ANY(u.verified_addresses)`, "desc")
    .orderBy("u.follower_count", "desc")
    .orderBy("u.fid")
    .limit(10)
    .execute();
}

export async function loadUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

/**
 * Upserts provider users and their address rows in one transaction (the caller's, when `db` is one). Usernames
 * move between FIDs on Farcaster, so names in the batch are first released from whoever held them (unique
 * lower(username)).
 */
export async function storeProviderUsers(db: Database, users: NeynarUser[]): Promise<UserRow[]> {
  const byFid = new Map(users.map((u) => [u.fid, u]));
  if (byFid.size === 0) return [];
  const now = new Date();
  const rows = [...byFid.values()].sort((a, b) => a.fid - b.fid).map((u) => rowFromProvider(u, now));
  const run = async (t: Database) => {
    const fids = rows.map((r) => r.fid);
    const names = [...new Set(rows.flatMap((r) => (r.username ? [r.username.toLowerCase()] : [])))];
    await t
      .updateTable("users")
      .set({ username: null })
      .where((eb) =>
        eb.or([eb("fid", "in", fids), ...(names.length ? [eb(sql<string>`lower(username)`, "in", names)] : [])]),
      )
      .where("username", "is not", null)
      .execute();
    const stored = await t
      .insertInto("users")
      .values(rows.map((r) => ({ ...r, profile: JSON.stringify(r.profile) })))
      .onConflict((oc) =>
        oc.column("fid").doUpdateSet((eb) => ({
          username: eb.ref("excluded.username"),
          display_name: eb.ref("excluded.display_name"),
          pfp_url: eb.ref("excluded.pfp_url"),
          custody_address: eb.ref("excluded.custody_address"),
          verified_addresses: eb.ref("excluded.verified_addresses"),
          twitter_username: eb.ref("excluded.twitter_username"),
          neynar_score: eb.ref("excluded.neynar_score"),
          follower_count: eb.ref("excluded.follower_count"),
          following_count: eb.ref("excluded.following_count"),
          profile: eb.ref("excluded.profile"),
          fetched_at: eb.ref("excluded.fetched_at"),
        })),
      )
      .returningAll()
      .execute();
    await t.deleteFrom("user_addresses").where("fid", "in", fids).execute();
    const addresses = rows.flatMap((r) =>
      [...new Set([...r.verified_addresses, ...(r.custody_address ? [r.custody_address] : [])])].map((address) => ({
        address,
        fid: r.fid,
      })),
    );
    if (addresses.length)
      await t
        .insertInto("user_addresses")
        .values(addresses)
        .onConflict((oc) => oc.doNothing())
        .execute();
    return stored;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** The provider says nobody holds `address` any more (except `keepFids`): forget stale holders. */
export async function forgetAddressHolders(db: Database, address: string, keepFids: number[]): Promise<void> {
  let q = db.deleteFrom("user_addresses").where("address", "=", address);
  if (keepFids.length) q = q.where("fid", "not in", keepFids);
  await q.execute();
}

export async function loadFollowedFids(db: Database, follower: number, max: number): Promise<number[]> {
  const rows = await db
    .selectFrom("follows")
    .select("followed_fid")
    .where("follower_fid", "=", follower)
    .orderBy("followed_fid")
    .limit(max)
    .execute();
  return rows.map((r) => r.followed_fid);
}

/** Replaces the follow set of `follower` with the provider's answer and stamps when it was read. */
export async function storeFollowing(
  db: Database,
  follower: number,
  followed: NeynarUser[],
  followerProfile: NeynarUser | null,
): Promise<void> {
  await db.transaction().execute(async (t) => {
    await storeProviderUsers(t, followerProfile ? [followerProfile, ...followed] : followed);
    await t.deleteFrom("follows").where("follower_fid", "=", follower).execute();
    const fids = [...new Set(followed.map((u) => u.fid))];
    if (fids.length) {
      await t
        .insertInto("follows")
        .values(fids.map((followed_fid) => ({ follower_fid: follower, followed_fid })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await t.updateTable("users").set({ following_fetched_at: new Date() }).where("fid", "=", follower).execute();
  });
}

/** The addresses (verified or custody) that these FIDs hold. */
export function loadAddressesOfFids(db: Database, fids: number[]): Promise<{ address: string; fid: number }[]> {
  return db.selectFrom("user_addresses").select(["address", "fid"]).where("fid", "in", fids).execute();
}

/** A matched creator: the FID and verified addresses its tokens are found by, and its JSON text (userJson). */
export type CreatorMatch = Pick<UserRow, "fid" | "verified_addresses"> & UserJsonRow;

/**
 * Profiles whose username, display name or X handle starts with `name`, each folded as token search folds text
 * (NFKC and lower(): searchFold): exact username first, then an exact handle or display name, then the most followed.
 * Prefixes only: a substring (trigram) match over three columns cost 50-100 ms at 125,000 profiles, a prefix match
 * 1-5. The matches are ranked from the three prefix indexes alone (on the folded column, they carry the FID and
 * follower count), and only the `limit` kept are read from the table, each with the JSON text of its user object.
 */
export function creatorsByNameQuery(name: string, limit: number) {
  // ^@ (starts_with) is served by the btree prefix indexes alone, as a byte-wise range of the folded column.
  const term = searchFold(sql.val(name));
  const fold = (column: "username" | "display_name" | "twitter_username") => searchFold(sql.ref(column));
  return sql<CreatorMatch>`
    WITH matched AS (
      SELECT fid, follower_count, ${fold("username")} = ${term} AS exact_name, false AS exact_other
        FROM users WHERE ${fold("username")} ^@ ${term}
      UNION ALL SELECT fid, follower_count, false, ${fold("display_name")} = ${term}
        FROM users WHERE ${fold("display_name")} ^@ ${term}
      UNION ALL SELECT fid, follower_count, false, ${fold("twitter_username")} = ${term}
        FROM users WHERE ${fold("twitter_username")} ^@ ${term}
    ), kept AS (
      SELECT fid, bool_or(exact_name) AS exact_name, bool_or(exact_other) AS exact_other, max(follower_count) AS followers
      FROM matched GROUP BY fid
      ORDER BY exact_name DESC, exact_other DESC, followers DESC, fid LIMIT ${limit}
    )
    SELECT u.fid, u.verified_addresses, ${sql.join(userJsonColumns)} FROM kept JOIN users u USING (fid)
    ORDER BY kept.exact_name DESC, kept.exact_other DESC, kept.followers DESC, kept.fid`;
}
