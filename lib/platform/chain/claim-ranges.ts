// The walk both claim indexers take (fee claims, airdrop claims): up to EARNINGS_INDEX_MAX_RANGES ranges of
// EARNINGS_INDEX_BLOCK_RANGE blocks after a checkpoint (from EARNINGS_INDEX_START_BLOCK the first time), stopping
// EARNINGS_INDEX_CONFIRMATIONS blocks behind the head (a reorg margin). Each range is read and stored by the caller.
import { config } from "@/lib/core/config";
import { getLatestBlockNumber } from "./reads";

export type RangeWalk = {
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  claimsSeen: number;
  claimsInserted: number;
};

export async function walkClaimRanges(
  chainId: number,
  checkpoint: number | null,
  readRange: (from: number, to: number) => Promise<{ seen: number; inserted: number }>,
): Promise<RangeWalk> {
  const cfg = config();
  const walk: RangeWalk = { fromBlock: null, toBlock: null, ranges: 0, claimsSeen: 0, claimsInserted: 0 };
  const safeHead = Number(await getLatestBlockNumber(chainId)) - cfg.EARNINGS_INDEX_CONFIRMATIONS;
  let from = checkpoint === null ? cfg.EARNINGS_INDEX_START_BLOCK : checkpoint + 1;
  while (walk.ranges < cfg.EARNINGS_INDEX_MAX_RANGES && from <= safeHead) {
    const to = Math.min(from + cfg.EARNINGS_INDEX_BLOCK_RANGE - 1, safeHead);
    const { seen, inserted } = await readRange(from, to);
    walk.claimsSeen += seen;
    walk.claimsInserted += inserted;
    walk.fromBlock ??= from;
    walk.toBlock = to;
    walk.ranges += 1;
    from = to + 1;
  }
  return walk;
}
