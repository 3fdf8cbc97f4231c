// Queries of the users domain: stored profiles (users), their addresses (user_addresses) and follows.
import { sql, type Transaction } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";
import type { NeynarUser } from "@/lib/platform/neynar/schemas";
import type { UserRow } from "./serialize";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The query itself, for the benchmark's database floor. */
export const usersByFidsQuery = (fids: number[]) => db().selectFrom("users").selectAll().where("fid", "in", fids);

export async function loadUsersByFids(fids: number[]): Promise<Map<number, UserRow>> {
  if (fids.length === 0) return new Map();
  const rows = await usersByFidsQuery(fids).execute();
  return new Map(rows.map((r) => [r.fid, r]));
}

/** Users holding the address (verified or custody), verified holders first, then the most followed. */
export async function loadUsersByAddress(address: string): Promise<UserRow[]> {
  return db()
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

export async function loadUserByUsername(username: string): Promise<UserRow | undefined> {
  return db()
    .selectFrom("users")
    .selectAll()
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

/** The provider object as a users row (addresses lowercase; X/Twitter handle from verified accounts). */
export function rowFromProvider(user: NeynarUser, fetchedAt: Date): Omit<UserRow, "following_fetched_at"> {
  const eth = [...(user.verified_addresses?.eth_addresses ?? []), ...(user.verifications ?? [])]
    .filter((a) => ADDRESS.test(a))
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
 * Upserts provider users and their address rows in one transaction. Usernames move between FIDs on
 * Farcaster, so names in the batch are first released from whoever held them (unique lower(username)).
 */
export async function storeProviderUsers(users: NeynarUser[], trx?: Transaction<DB>): Promise<UserRow[]> {
  const byFid = new Map(users.map((u) => [u.fid, u]));
  if (byFid.size === 0) return [];
  const now = new Date();
  const rows = [...byFid.values()].sort((a, b) => a.fid - b.fid).map((u) => rowFromProvider(u, now));
  const run = async (t: Transaction<DB>) => {
    const fids = rows.map((r) => r.fid);
    const names = [...new Set(rows.flatMap((r) => (r.username ? [r.username.toLowerCase()] : [])))];
    await t
      .updateTable("users")
      .set({ username: null })
      .where((eb) => eb.or([eb("fid", "in", fids), ...(names.length ? [eb(sql<string>`lower(username)`, "in", names)] : [])]))
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
      [...new Set([...r.verified_addresses, ...(r.custody_address ? [r.custody_address] : [])])].map((address) => ({ address, fid: r.fid })),
    );
    if (addresses.length) await t.insertInto("user_addresses").values(addresses).onConflict((oc) => oc.doNothing()).execute();
    return stored;
  };
  return trx ? run(trx) : db().transaction().execute(run);
}

/** The provider says nobody holds `address` any more (except `keepFids`): forget stale holders. */
export async function forgetAddressHolders(address: string, keepFids: number[]): Promise<void> {
  let q = db().deleteFrom("user_addresses").where("address", "=", address);
  if (keepFids.length) q = q.where("fid", "not in", keepFids);
  await q.execute();
}

export async function loadFollowedFids(follower: number, max: number): Promise<number[]> {
  const rows = await db()
    .selectFrom("follows")
    .select("followed_fid")
    .where("follower_fid", "=", follower)
    .orderBy("followed_fid")
    .limit(max)
    .execute();
  return rows.map((r) => r.followed_fid);
}

/** Replaces the follow set of `follower` with the provider's answer and stamps when it was read. */
export async function storeFollowing(follower: number, followed: NeynarUser[], followerProfile: NeynarUser | null): Promise<void> {
  await db()
    .transaction()
    .execute(async (t) => {
      await storeProviderUsers(followerProfile ? [followerProfile, ...followed] : followed, t);
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
