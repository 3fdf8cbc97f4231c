// How the claim streams (fee claims, airdrop claims) and the presale stream are followed: ranges of
// EARNINGS_INDEX_BLOCK_RANGE blocks (the follower halves them when the RPC refuses), up to EARNINGS_INDEX_MAX_RANGES a
// run, stopping EARNINGS_INDEX_CONFIRMATIONS blocks behind the head (a reorg margin), from EARNINGS_INDEX_START_BLOCK
// the first time. Unlike TokenCreated they never re-read below the checkpoint: their rows are not moved by a reorg.
import { config } from "@/lib/core/config";
import { type FollowOptions, followStream, type EventStream } from "./follower";

export function claimFollowOptions(): FollowOptions {
  const cfg = config();
  return {
    maxBlockRange: cfg.EARNINGS_INDEX_BLOCK_RANGE,
    maxRanges: cfg.EARNINGS_INDEX_MAX_RANGES,
    confirmations: cfg.EARNINGS_INDEX_CONFIRMATIONS,
  };
}

/** The block a claim stream starts at without a checkpoint. */
export const claimStartBlock = () => config().EARNINGS_INDEX_START_BLOCK;

/** What a claim stream's run reports: the blocks it covered, the claims it read and those it stored. */
export type ClaimWalk = {
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  claimsSeen: number;
  claimsInserted: number;
  setAside: number;
};

/** One run of a claim stream with claimFollowOptions (overridden by `options`). */
export async function followClaims<T>(
  stream: EventStream<T>,
  options: Partial<FollowOptions> = {},
): Promise<ClaimWalk> {
  const walk = await followStream(stream, { ...claimFollowOptions(), ...options });
  return {
    fromBlock: walk.fromBlock,
    toBlock: walk.toBlock,
    ranges: walk.ranges,
    claimsSeen: walk.events,
    claimsInserted: walk.stored,
    setAside: walk.setAside,
  };
}
