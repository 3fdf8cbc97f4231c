// Importing a chain's token history: the TokenCreated stream walked by the same follower as the minute indexer, from
// each factory's start block (its deployment block) or a chosen block, to the head or a chosen block. Its progress is
// kept under "token-created:backfill" and joins the minute indexer's checkpoint once it reaches it, so a run killed at
// any point resumes where it stopped, and the two never leave a gap between them (docs/indexing.md).
import { config } from "@/lib/core/config";
import type { TokenGeneration } from "@/lib/platform/chain";
import { type FollowProgress, type FollowResult, followStream } from "@/lib/platform/chain/follower";
import { indexedFactoryList } from "./factories";
import { tokenCreatedFollowOptions, tokenCreatedStream } from "./follow";

export type BackfillOptions = {
  /** Only the factories of this generation (the token object's `type`). */
  generation?: TokenGeneration;
  /** Where to start (default: after the minute indexer's checkpoint, else each factory's start block). */
  fromBlock?: number;
  /** Where to stop (default: the head when the run starts). */
  toBlock?: number;
  onProgress?: (progress: BackfillProgress) => void;
};

export type BackfillProgress = FollowProgress & {
  elapsedMs: number;
  blocksPerSecond: number;
  /** Seconds left at the rate so far; null before the first range. */
  etaSeconds: number | null;
};

/** The factories a backfill reads on a chain: every indexed one, or those of one generation. */
export function backfillFactories(chainId: number, generation?: TokenGeneration) {
  return indexedFactoryList(chainId).filter((f) => generation === undefined || f.type === generation);
}

/**
 * Follows the TokenCreated stream of one chain to its target with no limit of ranges or time, in ranges of up to
 * TOKEN_BACKFILL_BLOCK_RANGE blocks (halved when the RPC refuses), calling `onProgress` after each range.
 */
export async function backfillTokenCreated(chainId: number, options: BackfillOptions = {}): Promise<FollowResult> {
  const factories = backfillFactories(chainId, options.generation);
  const started = Date.now();
  return followStream(tokenCreatedStream(chainId, factories), {
    ...tokenCreatedFollowOptions(),
    maxRanges: undefined,
    maxBlockRange: config().TOKEN_BACKFILL_BLOCK_RANGE,
    toBlock: options.toBlock,
    backfill: { fromBlock: options.fromBlock },
    onProgress: (p) => {
      const elapsedMs = Math.max(1, Date.now() - started);
      const blocksPerSecond = (p.blocksDone * 1000) / elapsedMs;
      const left = p.blocksTotal - p.blocksDone;
      const etaSeconds = p.blocksDone > 0 ? left / blocksPerSecond : null;
      options.onProgress?.({ ...p, elapsedMs, blocksPerSecond, etaSeconds });
    },
  });
}
