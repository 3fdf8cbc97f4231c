// The airdrop-claim indexer: reads the airdrop extension's AirdropClaimed events by block range into
// airdrop_claims, advancing a checkpoint per (chain, airdrop contract); the fee-claim indexer's structure
// (lib/domains/rewards/earnings/indexer.ts) and its EARNINGS_INDEX_* settings. Re-reading a range changes
// nothing: a claim is unique by (chain, tx hash, log index) and the checkpoint only moves forward.
import { db } from "@/db";
import type { Address } from "viem";
import { chainSettings, getAirdropClaimLogs, type AirdropClaimEvent } from "@/lib/platform/chain";
import { walkClaimRanges } from "@/lib/platform/chain/claim-ranges";
import { advanceAirdropClaimCheckpoint, findAirdropClaimCheckpoint, insertAirdropClaims } from "./queries";

export type AirdropIndexRun = {
  chainId: number;
  airdrop: string | null;
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  claimsSeen: number;
  claimsInserted: number;
};

export async function airdropCheckpointOf(chainId: number, airdrop: string): Promise<number | null> {
  return findAirdropClaimCheckpoint(db(), chainId, airdrop.toLowerCase());
}

/** Stores one range's claims and moves the checkpoint to its end, atomically. */
async function storeRange(chainId: number, airdrop: string, toBlock: number, events: AirdropClaimEvent[]) {
  return db()
    .transaction()
    .execute(async (trx) => {
      let inserted = 0;
      if (events.length) {
        inserted = await insertAirdropClaims(
          trx,
          events.map((e) => ({
            chain_id: chainId,
            airdrop: e.address.toLowerCase(),
            token: e.token.toLowerCase(),
            account: e.user.toLowerCase(),
            total_claimed: e.totalUserAmountClaimed.toString(),
            still_locked: e.userAmountStillLocked.toString(),
            tx_hash: e.transactionHash.toLowerCase(),
            log_index: e.logIndex,
            block_number: Number(e.blockNumber),
          })),
        );
      }
      await advanceAirdropClaimCheckpoint(trx, chainId, airdrop, toBlock);
      return inserted;
    });
}

/**
 * Reads up to EARNINGS_INDEX_MAX_RANGES ranges of EARNINGS_INDEX_BLOCK_RANGE blocks after the checkpoint of the
 * chain's airdrop contract (AIRDROP_ADDRESS_<id> or the chain's default), stopping EARNINGS_INDEX_CONFIRMATIONS
 * blocks behind the head (a reorg margin); from EARNINGS_INDEX_START_BLOCK the first time.
 */
export async function indexAirdropClaims(chainId: number): Promise<AirdropIndexRun> {
  const airdrop = chainSettings(chainId).contracts.airdrop?.toLowerCase() as Address | undefined;
  const run: AirdropIndexRun = {
    chainId,
    airdrop: airdrop ?? null,
    fromBlock: null,
    toBlock: null,
    ranges: 0,
    claimsSeen: 0,
    claimsInserted: 0,
  };
  if (!airdrop) return run;
  const walk = await walkClaimRanges(chainId, await airdropCheckpointOf(chainId, airdrop), async (from, to) => {
    const events = await getAirdropClaimLogs(chainId, airdrop, from, to);
    return { seen: events.length, inserted: await storeRange(chainId, airdrop, to, events) };
  });
  return { ...run, ...walk };
}
