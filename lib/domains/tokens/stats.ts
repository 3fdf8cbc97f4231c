// Launch statistics of a token list (a creator's tokens): counts, first and latest launch and summed market
// cap per chain, aggregated over the newest STATS_SAMPLE tokens: a creator with 90,000 tokens would
// otherwise cost a 90,000-row read.
import { db } from "@/db";
import { tokenCount } from "./counts";
import type { TokenFilters } from "./queries/filters";
import { findChainStatsOfNewest, findFirstDeployedAt } from "./queries/stats";

/** Launch statistics are aggregated over at most this many of the newest tokens. */
export const STATS_SAMPLE = 1000;

export type ChainLaunchStats = {
  chainId: number;
  tokens: number;
  firstLaunchAt: Date;
  latestLaunchAt: Date;
  /** Sum of the stored market caps (USD) of the chain's tokens that have one. */
  marketCapUsd: number;
};

export type LaunchStats = {
  byChain: ChainLaunchStats[];
  tokensLaunched: number;
  firstLaunchAt: Date | null;
  latestLaunchAt: Date | null;
  /** false: more than STATS_SAMPLE tokens match; byChain covers the newest STATS_SAMPLE, tokensLaunched is the list's total. */
  complete: boolean;
};

/** The statistics of the tokens matching `f`; the count and the first launch are read only beyond the sample. */
export async function launchStats(f: TokenFilters): Promise<LaunchStats> {
  const byChain = (await findChainStatsOfNewest(db(), f, STATS_SAMPLE)).map((r) => ({
    chainId: r.chain_id,
    tokens: r.tokens,
    firstLaunchAt: r.first,
    latestLaunchAt: r.latest,
    marketCapUsd: r.market_cap,
  }));
  const sampled = byChain.reduce((n, c) => n + c.tokens, 0);
  const latestLaunchAt = byChain.length ? new Date(Math.max(...byChain.map((c) => c.latestLaunchAt.getTime()))) : null;
  if (sampled < STATS_SAMPLE) {
    const firstLaunchAt = byChain.length ? new Date(Math.min(...byChain.map((c) => c.firstLaunchAt.getTime()))) : null;
    return { byChain, tokensLaunched: sampled, firstLaunchAt, latestLaunchAt, complete: true };
  }
  const [count, firstLaunchAt] = await Promise.all([tokenCount(db(), f), findFirstDeployedAt(db(), f)]);
  return {
    byChain,
    tokensLaunched: Math.max(count.count, sampled),
    firstLaunchAt,
    latestLaunchAt,
    complete: count.exact && count.count === sampled,
  };
}
