// The accounts a FID follows: read from the provider (pages of 100, bounded), stored in `follows`,
// and served from there for FOLLOWING_TTL_SECONDS.
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { notFound, providerUnavailable } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { fetchFollowing, fetchUsersByFids, neynarConfigured, ProviderError } from "@/lib/platform/neynar/client";
import { loadFollowedFids, loadUsersByFids, storeFollowing } from "./queries/profiles";

/**
 * FIDs that `fid` follows. Served from the store while fresh, without a provider key, or when the
 * provider fails after an earlier successful read; a first read that fails is a 503.
 */
export async function followedFids(fid: number): Promise<number[]> {
  const cfg = config();
  const follower = (await loadUsersByFids(db(), [fid])).get(fid);
  const readAt = follower?.following_fetched_at?.getTime();
  const fresh = readAt !== undefined && Date.now() - readAt < cfg.FOLLOWING_TTL_SECONDS * 1000;
  if (fresh || !neynarConfigured()) return loadFollowedFids(db(), fid, cfg.FOLLOWING_MAX_ACCOUNTS);
  try {
    // The follower's own row carries the freshness stamp, so fetch it alongside when it is missing.
    const [followed, self] = await Promise.all([
      fetchFollowing(fid, cfg.FOLLOWING_MAX_ACCOUNTS),
      follower ? Promise.resolve(null) : fetchUsersByFids([fid]),
    ]);
    if (!follower && !self?.length) throw notFound(`no user with fid ${fid}`);
    const list = followed ?? [];
    try {
      await storeFollowing(db(), fid, list, self?.[0] ?? null);
    } catch (error) {
      log.warn("could not store the following list", { fid, error });
    }
    return [...new Set(list.map((u) => u.fid))];
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (readAt !== undefined) return loadFollowedFids(db(), fid, cfg.FOLLOWING_MAX_ACCOUNTS);
    throw providerUnavailable("the profile provider is unavailable; try again", error.retryAfterSeconds);
  }
}
