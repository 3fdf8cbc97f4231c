// The fee-claim indexer: the follower (lib/platform/chain/follower.ts) reads the fee locker's ClaimTokens events by
// block range into fee_claims, moving the "fee-claims" checkpoint per (chain, fee locker) in the same transaction.
// Re-reading a range changes nothing: a claim is unique by (chain, tx hash, log index) and the checkpoint only moves
// forward.
import type { Address } from "viem";
import { chainSettings, getFeeClaimLogs, type FeeClaimEvent } from "@/lib/platform/chain";
import { claimStartBlock, followClaims } from "@/lib/platform/chain/claim-ranges";
import type { EventStream, FollowOptions } from "@/lib/platform/chain/follower";
import { readCheckpoint } from "@/lib/platform/checkpoints";
import { insertFeeClaims } from "@/lib/domains/rewards/queries";

export const FEE_CLAIMS_STREAM = "fee-claims";

export type IndexRun = {
  chainId: number;
  feeLocker: string | null;
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  claimsSeen: number;
  claimsInserted: number;
};

export async function checkpointOf(chainId: number, feeLocker: string): Promise<number | null> {
  return readCheckpoint({ stream: FEE_CLAIMS_STREAM, chainId, address: feeLocker });
}

/** The chain's fee-claim stream (its fee locker's ClaimTokens), or null without a fee locker. */
export function feeClaimStream(chainId: number): EventStream<FeeClaimEvent[]> | null {
  const feeLocker = chainSettings(chainId).contracts.feeLocker?.toLowerCase() as Address | undefined;
  if (!feeLocker) return null;
  return {
    stream: FEE_CLAIMS_STREAM,
    chainId,
    sources: [{ address: feeLocker, startBlock: claimStartBlock() }],
    read: (range) => getFeeClaimLogs(chainId, { ...range, feeLockers: range.addresses }),
    eventsOf: (events) => events,
    async store(trx, events) {
      if (!events.length) return { stored: 0, setAside: [] };
      const stored = await insertFeeClaims(
        trx,
        events.map((e) => ({
          chain_id: chainId,
          fee_locker: e.address.toLowerCase(),
          tx_hash: e.transactionHash.toLowerCase(),
          log_index: e.logIndex,
          block_number: Number(e.blockNumber),
          fee_owner: e.feeOwner.toLowerCase(),
          token: e.token.toLowerCase(),
          amount: e.amountClaimed.toString(),
        })),
      );
      return { stored, setAside: [] };
    },
  };
}

/**
 * Reads up to EARNINGS_INDEX_MAX_RANGES ranges of EARNINGS_INDEX_BLOCK_RANGE blocks after the
 * checkpoint, stopping EARNINGS_INDEX_CONFIRMATIONS blocks behind the head (a reorg margin).
 */
export async function indexFeeClaims(chainId: number, options: Partial<FollowOptions> = {}): Promise<IndexRun> {
  const stream = feeClaimStream(chainId);
  const feeLocker = stream?.sources[0]?.address ?? null;
  const run = { chainId, feeLocker, fromBlock: null, toBlock: null, ranges: 0, claimsSeen: 0, claimsInserted: 0 };
  if (!stream) return run;
  const { setAside: _, ...walk } = await followClaims(stream, options);
  return { ...run, ...walk };
}
