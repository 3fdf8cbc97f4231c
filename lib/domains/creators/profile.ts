// creator/{address}: the profile holding a wallet and what that creator launched.
import type { z } from "zod";
import { checksum } from "@/lib/core/evm";
import { marketOf, toMarket, toTokenObject } from "@/lib/domains/tokens/serialize";
import { toUserObject } from "@/lib/domains/users/serialize";
import { lookupUserByAddress } from "@/lib/domains/users/service";
import type { creatorProfileResponse } from "./responses";
import { creatorLaunchStats, newestCreatorTokens, STATS_SAMPLE, type Creators } from "./tokens";

export const RECENT_TOKENS = 5;

/**
 * A creator is the wallet plus, when a profile holds it, that profile's FID and other verified
 * addresses: tokens the wallet deployed and tokens requested by the profile both count.
 * The profile is an extra here: when the provider fails and nothing is stored, `user` is null.
 */
export async function creatorProfile(address: string): Promise<z.input<typeof creatorProfileResponse>> {
  const user = await lookupUserByAddress(address, false);
  const creators: Creators = {
    fids: user ? [user.fid] : [],
    addresses: [...new Set([address, ...(user?.verified_addresses ?? [])])],
  };
  const [stats, recent] = await Promise.all([
    creatorLaunchStats(creators),
    newestCreatorTokens(creators, RECENT_TOKENS, true),
  ]);
  return {
    user: user ? toUserObject(user) : null,
    address: checksum(address),
    stats: {
      tokensLaunched: stats.tokensLaunched,
      firstLaunchAt: stats.firstLaunchAt?.toISOString() ?? null,
      latestLaunchAt: stats.latestLaunchAt?.toISOString() ?? null,
      tokensByChain: Object.fromEntries(stats.byChain.map((c) => [String(c.chainId), c.tokens])),
      totalMarketCapUsd: stats.byChain.reduce((sum, c) => sum + c.marketCapUsd, 0),
      // false: more than STATS_SAMPLE tokens; the two figures above cover the newest STATS_SAMPLE.
      complete: stats.complete,
      sampleSize: STATS_SAMPLE,
    },
    recentTokens: recent.map((row) => ({ ...toTokenObject(row), related: { market: toMarket(marketOf(row)) } })),
  };
}
