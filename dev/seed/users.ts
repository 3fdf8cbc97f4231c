// Synthetic users: profiles, verified addresses and a follow graph in which popular creators are
// followed by many. Built in memory first (the token generator needs every creator's addresses).
import { type Prng, Zipf } from "./prng";
import { displayName, usernameStem } from "./vocabulary";
import { arrayLiteral } from "@/db/array-literal";
import type { Phase } from "./phases";

export type UsersModel = {
  count: number;
  firstFid: number;
  /** verified addresses per user index (lowercase, may be empty) */
  addresses: string[][];
  custody: string[];
  usernames: string[];
  /** user index -> its popularity rank's user: ranks are spread over fids so fid 1 is not always the star */
  byPopularity(rank: number): number;
  popularity: Zipf;
  follows: { follower: Int32Array; followed: Int32Array; length: number };
  followerCount: Int32Array;
  followingCount: Int32Array;
};

export const FIRST_FID = 1;

/** A permutation of [0, n): multiplication by a step coprime to n. */
function spread(n: number): (rank: number) => number {
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  let step = 1_000_003 % n || 1;
  while (gcd(step, n) !== 1) step++;
  return (rank) => (rank * step + 7) % n;
}

export function buildUsers(rng: Prng, count: number): UsersModel {
  const r = rng.fork("users");
  const taken = new Set<string>();
  const usernames: string[] = [];
  const addresses: string[][] = [];
  const custody: string[] = [];
  let addressIndex = 0;
  for (let i = 0; i < count; i++) {
    let name = usernameStem(r);
    while (taken.has(name)) name = `${usernameStem(r)}${r.between(1, 9999)}`;
    taken.add(name);
    usernames.push(name);
    custody.push(r.uniqueHex(20, i, 0x5eed0001));
    const n = r.float() < 0.06 ? 0 : r.float() < 0.6 ? 1 : r.float() < 0.75 ? 2 : 3;
    const own: string[] = [];
    for (let k = 0; k < n; k++) own.push(r.uniqueHex(20, addressIndex++, 0x5eed0002));
    addresses.push(own);
  }
  const popularity = new Zipf(count, 1.05);
  const byPopularity = spread(count);
  return {
    count,
    firstFid: FIRST_FID,
    addresses,
    custody,
    usernames,
    byPopularity,
    popularity,
    ...buildFollows(rng, count, popularity, byPopularity),
  };
}

function buildFollows(rng: Prng, count: number, popularity: Zipf, byPopularity: (rank: number) => number) {
  const r = rng.fork("follows");
  let follower = new Int32Array(count * 12);
  let followed = new Int32Array(count * 12);
  let length = 0;
  const followerCount = new Int32Array(count);
  const followingCount = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const want = Math.min(count - 1, 500, Math.floor(r.logNormal(6, 1)));
    const seen = new Set<number>();
    for (let tries = 0; seen.size < want && tries < want * 3; tries++) {
      const target = byPopularity(popularity.sample(r));
      if (target !== i) seen.add(target);
    }
    if (length + seen.size > follower.length) {
      const grow = (a: Int32Array) => {
        const bigger = new Int32Array(a.length * 2);
        bigger.set(a);
        return bigger;
      };
      follower = grow(follower);
      followed = grow(followed);
    }
    for (const target of seen) {
      follower[length] = i;
      followed[length++] = target;
      followerCount[target]++;
      followingCount[i]++;
    }
  }
  return { follows: { follower, followed, length }, followerCount, followingCount };
}

export function userPhases(model: UsersModel, rng: Prng, fetchedAt: Date): Phase[] {
  const r = rng.fork("user-rows");
  const fid = (i: number) => model.firstFid + i;
  const users: Phase = {
    phase: "users",
    table: "users",
    total: model.count,
    columns: [
      ["fid", "int8"],
      ["username", "text"],
      ["display_name", "text"],
      ["pfp_url", "text", "plain"],
      ["custody_address", "text", "plain"],
      ["verified_addresses", "text[]"],
      ["twitter_username", "text"],
      ["neynar_score", "float8"],
      ["follower_count", "int4"],
      ["following_count", "int4"],
    ],
    select: { fetched_at: `'${fetchedAt.toISOString()}'::timestamptz` },
    generate(start, end) {
      const c: Record<string, unknown[]> = {};
      for (const [name] of users.columns) c[name] = [];
      for (let i = start; i < end; i++) {
        const username = model.usernames[i];
        c.fid.push(fid(i));
        c.username.push(username);
        c.display_name.push(displayName(r, username));
        c.pfp_url.push(r.chance(0.9) ? `https://i.imgur.com/${r.hex(6).slice(2)}.png` : null);
        c.custody_address.push(model.custody[i]);
        c.verified_addresses.push(arrayLiteral(model.addresses[i], true));
        c.twitter_username.push(r.chance(0.3) ? username.replace(/\.eth$/, "").slice(0, 15) : null);
        c.neynar_score.push(Math.round(r.float() * 100) / 100);
        c.follower_count.push(model.followerCount[i]);
        c.following_count.push(model.followingCount[i]);
      }
      return c;
    },
  };
  const pairs: Array<[number, string]> = [];
  model.addresses.forEach((list, i) => {
    for (const a of list) pairs.push([fid(i), a]);
  });
  const userAddresses: Phase = {
    phase: "user_addresses",
    table: "user_addresses",
    total: pairs.length,
    columns: [
      ["address", "text", "plain"],
      ["fid", "int8"],
    ],
    generate: (start, end) => ({
      address: pairs.slice(start, end).map((p) => p[1]),
      fid: pairs.slice(start, end).map((p) => p[0]),
    }),
  };
  const { follower, followed } = model.follows;
  const follows: Phase = {
    phase: "follows",
    table: "follows",
    total: model.follows.length,
    batchSize: 20_000,
    columns: [
      ["follower_fid", "int8"],
      ["followed_fid", "int8"],
    ],
    generate: (start, end) => ({
      follower_fid: Array.from(follower.subarray(start, end), fid),
      followed_fid: Array.from(followed.subarray(start, end), fid),
    }),
  };
  return [users, userAddresses, follows];
}
