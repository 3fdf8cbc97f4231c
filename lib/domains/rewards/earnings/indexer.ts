// The fee-claim indexer: reads the fee locker's ClaimTokens events by block range into fee_claims,
// advancing a checkpoint per (chain, fee locker). Re-reading a range changes nothing: a claim is
// unique by (chain, tx hash, log index) and the checkpoint only moves forward.
import type { Address } from "viem";
import { db } from "@/db";
import { chainSettings, getFeeClaimLogs, type FeeClaimEvent } from "@/lib/platform/chain";
import { walkClaimRanges } from "@/lib/platform/chain/claim-ranges";
import { advanceFeeClaimCheckpoint, findFeeClaimCheckpoint, insertFeeClaims } from "@/lib/domains/rewards/queries";

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
  return findFeeClaimCheckpoint(db(), chainId, feeLocker.toLowerCase());
}

/** Stores one range's claims and moves the checkpoint to its end, atomically. */
async function storeRange(
  chainId: number,
  feeLocker: string,
  toBlock: number,
  events: FeeClaimEvent[],
): Promise<number> {
  return db()
    .transaction()
    .execute(async (trx) => {
      let inserted = 0;
      if (events.length) {
        inserted = await insertFeeClaims(
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
      }
      await advanceFeeClaimCheckpoint(trx, chainId, feeLocker, toBlock);
      return inserted;
    });
}

/**
 * Reads up to EARNINGS_INDEX_MAX_RANGES ranges of EARNINGS_INDEX_BLOCK_RANGE blocks after the
 * checkpoint, stopping EARNINGS_INDEX_CONFIRMATIONS blocks behind the head (a reorg margin).
 */
export async function indexFeeClaims(chainId: number): Promise<IndexRun> {
  const feeLocker = chainSettings(chainId).contracts.feeLocker?.toLowerCase() as Address | undefined;
  const run: IndexRun = {
    chainId,
    feeLocker: feeLocker ?? null,
    fromBlock: null,
    toBlock: null,
    ranges: 0,
    claimsSeen: 0,
    claimsInserted: 0,
  };
  if (!feeLocker) return run;
  const walk = await walkClaimRanges(chainId, await checkpointOf(chainId, feeLocker), async (from, to) => {
    const events = await getFeeClaimLogs(chainId, { fromBlock: from, toBlock: to, feeLockers: [feeLocker] });
    return { seen: events.length, inserted: await storeRange(chainId, feeLocker, to, events) };
  });
  return { ...run, ...walk };
}
