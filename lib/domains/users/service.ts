// Profiles served from the users table within the interface's freshness (5 minutes by FID, 24 hours by
// address); stale or missing ones are fetched from the provider, many at once, and stored.
import { db } from "@/db";
import { notFound, providerUnavailable } from "@/lib/core/errors";
import { kv } from "@/lib/platform/kv";
import { tryRateLimit } from "@/lib/platform/kv/rate-limit";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import {
  BULK_FIDS_MAX,
  fetchUserByUsername,
  fetchUsersByAddresses,
  fetchUsersByFids,
  neynarConfigured,
  ProviderError,
} from "@/lib/platform/neynar/client";
import type { NeynarUser } from "@/lib/platform/neynar/schemas";
import type { z } from "zod";
import { JsonText } from "@/lib/core/json";
import { rowFromProvider, toUserObject, userJson, type UserObject, type UserRow } from "./serialize";
import type { multipleUsersResponse } from "./responses";
import {
  type CreatorMatch,
  creatorsByNameQuery,
  forgetAddressHolders,
  loadAddressesOfFids,
  loadUserByUsername,
  loadUserJsonByFids,
  loadUsersByAddress,
  loadUsersByFids,
  storeProviderUsers,
} from "./queries/profiles";

export const FID_TTL_SECONDS = 300;
export const ADDRESS_TTL_SECONDS = 86_400;
/** An address nobody holds is asked about again after this long (a 404 is not edge-cached). */
export const ADDRESS_MISS_TTL_SECONDS = 600;

export type { UserObject } from "./serialize";
export type { CreatorMatch } from "./queries/profiles";

const isFresh = (row: UserRow, ttlSeconds: number) => Date.now() - row.fetched_at.getTime() < ttlSeconds * 1000;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Stores what the provider sent; if storing fails the fetched profiles are still served (as rows built
 * in memory), because the provider's answer is what the caller asked for.
 */
async function keep(users: NeynarUser[]): Promise<UserRow[]> {
  try {
    return await storeProviderUsers(db(), users);
  } catch (error) {
    log.warn("could not store provider users", { error, count: users.length });
    const now = new Date();
    return users.map((u) => ({ ...rowFromProvider(u, now), following_fetched_at: null }));
  }
}

export type UsersLookup = { users: Map<number, UserRow>; providerError?: ProviderError };

/**
 * Rows for these FIDs: stored ones younger than `ttlSeconds` as they are, the rest fetched in bulk
 * calls of 100. Without a provider key, or when the provider fails, stored rows are served as they are.
 */
export async function lookupUsersByFids(fids: number[], ttlSeconds = FID_TTL_SECONDS): Promise<UsersLookup> {
  const users = await loadUsersByFids(db(), fids);
  const stale = fids.filter((fid) => !users.has(fid) || !isFresh(users.get(fid)!, ttlSeconds));
  if (stale.length === 0) return { users };
  if (!neynarConfigured())
    return stale.some((fid) => !users.has(fid)) ? { users, providerError: NOT_CONFIGURED } : { users };
  try {
    const fetched = (await Promise.all(chunks(stale, BULK_FIDS_MAX).map(fetchUsersByFids))).flat();
    for (const row of await keep(fetched)) users.set(row.fid, row);
    return { users };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { users, providerError: error };
  }
}

const unavailable = (error: ProviderError) =>
  providerUnavailable("the profile provider is unavailable; try again", error.retryAfterSeconds);

/** A lookup nothing stored answers, with no provider to ask: not a 404 (the user may well exist). */
const NOT_CONFIGURED = new ProviderError("no profile provider is configured (NEYNAR_API_KEY)");
const notConfigured = () =>
  providerUnavailable("no profile provider is configured, and no stored profile answers this lookup");

export async function getUserByFid(fid: number): Promise<UserObject> {
  const { users, providerError } = await lookupUsersByFids([fid]);
  const row = users.get(fid);
  if (row) return toUserObject(row);
  if (providerError === NOT_CONFIGURED) throw notConfigured();
  if (providerError) throw unavailable(providerError);
  throw notFound(`no user with fid ${fid}`);
}

type MultipleUsers = z.input<typeof multipleUsersResponse>;

/**
 * Profiles in the order asked, unknown FIDs left out. When the provider fails, whatever is stored is
 * served; 503 only when nothing at all is stored for the FIDs asked. When every profile is stored and fresh, or
 * there is no provider to ask, the answer is the JSON text the database writes (userJson).
 */
export async function getUsersByFids(fids: number[]): Promise<MultipleUsers | JsonText<MultipleUsers>> {
  const stored = await loadUserJsonByFids(db(), fids, FID_TTL_SECONDS);
  if (fids.every((fid) => stored.get(fid)?.fresh) || !neynarConfigured()) {
    if (stored.size === 0 && fids.length > 0) throw notConfigured();
    const users = fids.flatMap((fid) => (stored.has(fid) ? [userJson(stored.get(fid)!).text] : []));
    return new JsonText(`{"users":[${users.join(",")}]}`);
  }
  const { users, providerError } = await lookupUsersByFids(fids);
  if (providerError && users.size === 0)
    throw providerError === NOT_CONFIGURED ? notConfigured() : unavailable(providerError);
  return { users: fids.flatMap((fid) => (users.has(fid) ? [toUserObject(users.get(fid)!)] : [])) };
}

/** Verified holders of the address first (custody-only holders after), then the most followed. */
function pickHolder(rows: UserRow[], address: string): UserRow | null {
  const ranked = [...rows].sort(
    (a, b) =>
      Number(b.verified_addresses.includes(address)) - Number(a.verified_addresses.includes(address)) ||
      b.follower_count - a.follower_count ||
      a.fid - b.fid,
  );
  return ranked[0] ?? null;
}

/**
 * The row of the user holding `address` (lowercase), or null. `strict`: a provider failure without a
 * stored row is a 503 (the user endpoints); otherwise it reads as "nobody" (pages that show a profile
 * only as an extra, like search and creator pages).
 */
export async function lookupUserByAddress(address: string, strict = true): Promise<UserRow | null> {
  const stored = await loadUsersByAddress(db(), address);
  const fresh = stored.filter((r) => isFresh(r, ADDRESS_TTL_SECONDS));
  if (!neynarConfigured() && stored.length === 0 && strict) throw notConfigured();
  if (fresh.length || !neynarConfigured()) return pickHolder(fresh.length ? fresh : stored, address);
  const store = await kv();
  const missKey = `users:no-holder:${address}`;
  if (stored.length === 0 && (await store.get(missKey))) return null;
  try {
    const holders = (await fetchUsersByAddresses([address])).get(address) ?? [];
    const rows = await keep(holders);
    await forgetAddressHolders(
      db(),
      address,
      rows.map((r) => r.fid),
    ).catch(() => {});
    if (rows.length === 0) await store.set(missKey, { at: Date.now() }, ADDRESS_MISS_TTL_SECONDS);
    return pickHolder(rows, address);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (stored.length || !strict) return pickHolder(stored, address);
    throw unavailable(error);
  }
}

export async function getUserByAddress(address: string): Promise<UserObject> {
  const row = await lookupUserByAddress(address);
  if (!row) throw notFound("no user has this verified address");
  return toUserObject(row);
}

/** Username lookups are case-insensitive; a stored row younger than 5 minutes is served as it is. */
export async function getUserByName(name: string): Promise<UserObject> {
  const stored = await loadUserByUsername(db(), name);
  if ((stored && isFresh(stored, FID_TTL_SECONDS)) || !neynarConfigured()) {
    if (stored) return toUserObject(stored);
    throw notConfigured();
  }
  let fetched: NeynarUser | null;
  try {
    fetched = await fetchUserByUsername(name);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (stored) return toUserObject(stored);
    throw unavailable(error);
  }
  if (!fetched) throw notFound(`no user named ${name}`);
  const [row] = await keep([fetched]);
  return toUserObject(row);
}

/** User objects from stored rows only (no provider call): for decorating lists, e.g. `includeUser`. */
export async function storedUserObjects(fids: number[]): Promise<Map<number, UserObject>> {
  const rows = await loadUsersByFids(db(), [...new Set(fids)]);
  return new Map([...rows].map(([fid, row]) => [fid, toUserObject(row)]));
}

/** The addresses (verified or custody) that these FIDs hold, as stored. */
export function addressesOfFids(fids: number[]): Promise<{ address: string; fid: number }[]> {
  return loadAddressesOfFids(db(), fids);
}

/** Stored profiles whose username, display name or X handle starts with `name`, folded (see creatorsByNameQuery). */
export async function matchCreatorsByName(name: string, limit: number): Promise<CreatorMatch[]> {
  return (await creatorsByNameQuery(name, limit).execute(db())).rows;
}

/** Bulk calls that list decoration may make, across all requests (the provider's own rate limit is per key). */
const listFetchLimit = () => ({
  name: "neynar-list-profiles",
  limit: config().NEYNAR_LIST_FETCHES_PER_MINUTE,
  windowSeconds: 60,
});
/** A FID the provider did not know is not asked about again for this long. */
const FID_MISS_TTL_SECONDS = 600;

/**
 * User objects for a list's creators (`includeUser`): stored profiles whatever their age, and FIDs never
 * stored fetched from the provider in bulk calls of 100 (bounded by the page), stored, and FIDs it does not
 * know remembered for 10 minutes. `complete` is false when some could not be fetched: no provider configured,
 * the provider failing, or the list budget (NEYNAR_LIST_FETCHES_PER_MINUTE) spent; those are absent.
 */
export async function listUserObjects(fids: number[]): Promise<{ users: Map<number, UserObject>; complete: boolean }> {
  const wanted = [...new Set(fids)];
  const rows = await loadUsersByFids(db(), wanted);
  const users = () => new Map([...rows].map(([fid, row]) => [fid, toUserObject(row)]));
  const unknown = wanted.filter((fid) => !rows.has(fid));
  if (unknown.length === 0) return { users: users(), complete: true };
  if (!neynarConfigured()) return { users: users(), complete: false };
  const store = await kv();
  const remembered = await Promise.all(unknown.map((fid) => store.get(`users:no-fid:${fid}`)));
  const missing = unknown.filter((_, i) => !remembered[i]);
  if (missing.length === 0) return { users: users(), complete: true };
  const batches = chunks(missing, BULK_FIDS_MAX);
  for (let i = 0; i < batches.length; i++)
    if (!(await tryRateLimit(listFetchLimit(), "all"))) return { users: users(), complete: false };
  try {
    const fetched = (await Promise.all(batches.map(fetchUsersByFids))).flat();
    for (const row of await keep(fetched)) rows.set(row.fid, row);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log.warn("profiles for a list could not be fetched", { error: error.message, count: missing.length });
    return { users: users(), complete: false };
  }
  const unknownToProvider = missing.filter((fid) => !rows.has(fid));
  await Promise.all(
    unknownToProvider.map((fid) => store.set(`users:no-fid:${fid}`, { at: Date.now() }, FID_MISS_TTL_SECONDS)),
  );
  return { users: users(), complete: true };
}
