// The tokens of a set of creators (by requestor FID or deployer address), as the tokens domain lists them:
// a page with a total and the trust facts of its rows, the newest few, and the creators' launch statistics.
import {
  launchStats,
  tokenRows,
  tokenJsonPage,
  type LaunchStats,
  type ListRequest,
  type PageJsonRow,
  type PageRow,
  type TokenFilters,
} from "@/lib/domains/tokens/service";
import { trustedTokenCondition, trustFactColumns } from "@/lib/domains/users/trust";
import type { TrustFacts } from "./trust";

export { STATS_SAMPLE } from "@/lib/domains/tokens/service";

export type Creators = { fids: number[]; addresses: string[] };
export type Platform = "farcaster" | "twitter";

/** social_context.platform values per filter value ("x" is the same network as "twitter"). */
export const PLATFORM_VALUES: Record<Platform, string[]> = { farcaster: ["farcaster"], twitter: ["twitter", "x"] };

export type CreatorTokenFilter = { platform?: Platform; trustedOnly?: boolean };

const nobody = (creators: Creators) => !creators.fids.length && !creators.addresses.length;

/** The token list filters of the creators' tokens; trusted: listed, deployer listed, or the requester verified the deployer. */
export function creatorTokenFilters(creators: Creators, filter: CreatorTokenFilter = {}): TokenFilters {
  return {
    creators,
    ...(filter.platform ? { platforms: PLATFORM_VALUES[filter.platform] } : {}),
    ...(filter.trustedOnly ? { condition: trustedTokenCondition } : {}),
  };
}

export type CreatorTokenPage = { sort: "asc" | "desc"; limit: number; offset: number };
export type CreatorTokenRow = PageJsonRow & TrustFacts;

/**
 * The token list of a page of the creators' tokens, each with its trust facts (no market data: search-creator
 * shows none).
 */
export function creatorTokensRequest(
  creators: Creators,
  filter: CreatorTokenFilter,
  page: CreatorTokenPage,
): ListRequest {
  return {
    filters: creatorTokenFilters(creators, filter),
    ...page,
    includeMarket: false,
    extraColumns: trustFactColumns,
  };
}

/**
 * A page of the creators' tokens by deployment time (id breaks ties), each row with its trust facts.
 * `hasMore` is exact (one row more is read); `total` as the token lists count it: exact up to
 * ESTIMATE_ABOVE expected matches or at the end of the list, else the planner's estimate.
 */
export async function pageCreatorTokens(
  creators: Creators,
  filter: CreatorTokenFilter,
  page: CreatorTokenPage,
): Promise<{ rows: CreatorTokenRow[]; total: number; hasMore: boolean }> {
  if (nobody(creators)) return { rows: [], total: 0, hasMore: false };
  const { rows, total, hasMore } = await tokenJsonPage(creatorTokensRequest(creators, filter, page));
  return { rows: rows as CreatorTokenRow[], total, hasMore };
}

/** The newest tokens of the creators, at most `limit`, with their stored market data when `includeMarket`. */
export async function newestCreatorTokens(
  creators: Creators,
  limit: number,
  includeMarket = false,
): Promise<PageRow[]> {
  if (nobody(creators)) return [];
  return tokenRows({ filters: creatorTokenFilters(creators), limit, includeMarket });
}

/** The creators' launch statistics (lib/domains/tokens/stats.ts). */
export async function creatorLaunchStats(creators: Creators): Promise<LaunchStats> {
  if (nobody(creators))
    return { byChain: [], tokensLaunched: 0, firstLaunchAt: null, latestLaunchAt: null, complete: true };
  return launchStats(creatorTokenFilters(creators));
}
