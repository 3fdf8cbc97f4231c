// The legacy claim stream: the follower (lib/platform/chain/follower.ts) reads the claim events of the LP lockers
// before v4 (ClaimedFees, ClaimedRewards) into legacy_fee_claims, one row per recipient paid. v0 and v1 tokens have a
// locker each, so the stream reads the events' topics from any contract and keeps those of a known locker: the
// shared v2, v3 and v3.1 lockers, and the locker of a stored v0 or v1 token. It follows no one contract: its one
// checkpoint per chain is kept under the zero address. Re-reading a range changes nothing (rows are unique by chain,
// tx hash, log index and role). A v0 or v1 token's claims are kept only once the token is stored, so the stream never
// reads past the blocks whose v0 and v1 tokens are all stored (a backfill's progress, else the indexer's checkpoint).
import { zeroAddress, type Address } from "viem";
import type { Transaction } from "kysely";
import type { DB } from "@/db/types";
import {
  readLegacyClaimLogs,
  sharedLegacyLockers,
  type LegacyClaimEvent,
  type UndecodableLog,
} from "@/lib/platform/chain";
import { type ClaimWalk, claimStartBlock, followClaims } from "@/lib/platform/chain/claim-ranges";
import type { EventStream, FollowOptions } from "@/lib/platform/chain/follower";
import { readCheckpoint } from "@/lib/platform/checkpoints";
import { quarantineEvent } from "@/lib/platform/quarantine";
import { tokensStoredTo } from "@/lib/domains/launch/indexer/follow";
import { legacyTokenLockers } from "@/lib/domains/tokens/service";
import { insertLegacyClaims } from "./queries";

export const LEGACY_CLAIMS_STREAM = "legacy-fee-claims";

/** The generations whose tokens each have a locker of their own: their claims are known only once the token is. */
const OWN_LOCKER_GENERATIONS = ["proxy", "clanker"] as const;

type LegacyRange = { events: LegacyClaimEvent[]; undecodable: UndecodableLog[] };

/** The last block the legacy claim stream has read on the chain, or null before its first range. */
export function checkpointOfLegacyClaims(chainId: number): Promise<number | null> {
  return readCheckpoint({ stream: LEGACY_CLAIMS_STREAM, chainId, address: zeroAddress });
}

/** The rows of one claim event: one per recipient paid, amounts in the position's token order. */
export function legacyClaimRows(chainId: number, e: LegacyClaimEvent) {
  return e.payouts.map((p) => ({
    chain_id: chainId,
    locker: e.address.toLowerCase(),
    tx_hash: e.transactionHash.toLowerCase(),
    log_index: e.logIndex,
    block_number: Number(e.blockNumber),
    lp_nft_id: e.lpNftId === null ? null : e.lpNftId.toString(),
    token0: e.token0.toLowerCase(),
    token1: e.token1.toLowerCase(),
    role: p.role,
    recipient: p.recipient.toLowerCase(),
    amount0: p.amount0.toString(),
    amount1: p.amount1.toString(),
  }));
}

/** The range's claim events and undecodable claim logs whose emitter is a locker the service knows. */
async function readKnown(chainId: number, fromBlock: number, toBlock: number): Promise<LegacyRange> {
  const { events, undecodable } = await readLegacyClaimLogs(chainId, { fromBlock, toBlock });
  const shared = new Set(sharedLegacyLockers(chainId).map((a) => a.toLowerCase()));
  const emitters = [...events, ...undecodable].map((e) => e.address.toLowerCase()).filter((a) => !shared.has(a));
  const own = new Set(await legacyTokenLockers(chainId, emitters));
  const known = (e: { address: Address }) => shared.has(e.address.toLowerCase()) || own.has(e.address.toLowerCase());
  return { events: events.filter(known), undecodable: undecodable.filter(known) };
}

export function legacyClaimStream(chainId: number): EventStream<LegacyRange> {
  return {
    stream: LEGACY_CLAIMS_STREAM,
    chainId,
    sources: [{ address: zeroAddress, startBlock: claimStartBlock() }],
    read: (range) => readKnown(chainId, range.fromBlock, range.toBlock),
    // Counted under the stream's one source.
    eventsOf: (data) => [...data.events, ...data.undecodable].map(() => ({ address: zeroAddress })),
    async store(trx: Transaction<DB>, data) {
      const stored = await insertLegacyClaims(
        trx,
        data.events.flatMap((e) => legacyClaimRows(chainId, e)),
      );
      for (const u of data.undecodable) {
        await quarantineEvent(trx, {
          stream: LEGACY_CLAIMS_STREAM,
          chainId,
          address: u.address,
          blockNumber: Number(u.blockNumber),
          logIndex: u.logIndex,
          txHash: u.transactionHash,
          reason: "undecodable",
          error: u.error,
        });
      }
      return { stored, setAside: data.undecodable.map(() => ({ address: zeroAddress })) };
    },
  };
}

export type LegacyIndexRun = ClaimWalk & { chainId: number };

/**
 * One run of the stream: as the v4 fee claims, EARNINGS_INDEX_* bound its ranges and its margin behind the head; it
 * stops where the v0 and v1 tokens stored stop.
 */
export async function indexLegacyClaims(
  chainId: number,
  options: Partial<FollowOptions> = {},
): Promise<LegacyIndexRun> {
  const storedTo = await tokensStoredTo(chainId, OWN_LOCKER_GENERATIONS);
  const notAfter = Math.min(options.notAfter ?? Infinity, storedTo ?? Infinity);
  return { chainId, ...(await followClaims(legacyClaimStream(chainId), { ...options, notAfter })) };
}
