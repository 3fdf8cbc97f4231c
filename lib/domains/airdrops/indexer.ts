// The airdrop-claim indexer: the follower (lib/platform/chain/follower.ts) reads the airdrop extension's AirdropClaimed
// events by block range into airdrop_claims, moving the "airdrop-claims" checkpoint per (chain, airdrop contract) in
// the same transaction, with the fee-claim stream's EARNINGS_INDEX_* settings. Re-reading a range changes nothing: a
// claim is unique by (chain, tx hash, log index) and the checkpoint only moves forward.
import type { Address } from "viem";
import { chainSettings, getAirdropClaimLogs, type AirdropClaimEvent } from "@/lib/platform/chain";
import { claimStartBlock, followClaims } from "@/lib/platform/chain/claim-ranges";
import type { EventStream, FollowOptions } from "@/lib/platform/chain/follower";
import { readCheckpoint } from "@/lib/platform/checkpoints";
import { insertAirdropClaims } from "./queries";

export const AIRDROP_CLAIMS_STREAM = "airdrop-claims";

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
  return readCheckpoint({ stream: AIRDROP_CLAIMS_STREAM, chainId, address: airdrop });
}

/** The chain's airdrop-claim stream (AIRDROP_ADDRESS_<id> or the chain's default), or null without one. */
export function airdropClaimStream(chainId: number): EventStream<AirdropClaimEvent[]> | null {
  const airdrop = chainSettings(chainId).contracts.airdrop?.toLowerCase() as Address | undefined;
  if (!airdrop) return null;
  return {
    stream: AIRDROP_CLAIMS_STREAM,
    chainId,
    sources: [{ address: airdrop, startBlock: claimStartBlock() }],
    read: ({ fromBlock, toBlock }) => getAirdropClaimLogs(chainId, airdrop, fromBlock, toBlock),
    eventsOf: (events) => events,
    async store(trx, events) {
      if (!events.length) return { stored: 0, setAside: [] };
      const stored = await insertAirdropClaims(
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
      return { stored, setAside: [] };
    },
  };
}

/**
 * Reads up to EARNINGS_INDEX_MAX_RANGES ranges of EARNINGS_INDEX_BLOCK_RANGE blocks after the checkpoint of the
 * chain's airdrop contract, stopping EARNINGS_INDEX_CONFIRMATIONS blocks behind the head (a reorg margin); from
 * EARNINGS_INDEX_START_BLOCK the first time.
 */
export async function indexAirdropClaims(
  chainId: number,
  options: Partial<FollowOptions> = {},
): Promise<AirdropIndexRun> {
  const stream = airdropClaimStream(chainId);
  const airdrop = stream?.sources[0]?.address ?? null;
  const run = { chainId, airdrop, fromBlock: null, toBlock: null, ranges: 0, claimsSeen: 0, claimsInserted: 0 };
  if (!stream) return run;
  const { setAside: _, ...walk } = await followClaims(stream, options);
  return { ...run, ...walk };
}
