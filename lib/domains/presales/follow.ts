// The presale stream: the follower (lib/platform/chain/follower.ts) reads the presale contract's events by block
// range, folds each block's events into one change per presale (indexer.ts), completes them from the presale's
// record where the events do not carry it, and applies them in the transaction that moves the "presales" checkpoint.
// The refresh job (jobs.ts) applies one transaction's events at once; both fold the same way, so neither undoes the
// other. A presale id past 2^53 is set aside (quarantined), never a stop.
import type { Address } from "viem";
import { chainSettings, getBlockHeader, getPresaleEventLogs, type PresaleEvent } from "@/lib/platform/chain";
import { claimFollowOptions, claimStartBlock } from "@/lib/platform/chain/claim-ranges";
import { type EventStream, type FollowOptions, followStream } from "@/lib/platform/chain/follower";
import { quarantineEvent } from "@/lib/platform/quarantine";
import { applyPresaleChangeIn, type Change, foldPresaleEvents, withRecord } from "./indexer";

export const PRESALES_STREAM = "presales";

/** Chain reads (block times, presale records) in flight at once: with JSON-RPC batching, one request. */
const READS_AT_ONCE = 16;

type PresaleRange = { events: PresaleEvent[]; changes: Change[]; outOfRange: PresaleEvent[] };

async function inBatches<T, R>(items: T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += READS_AT_ONCE)
    out.push(...(await Promise.all(items.slice(i, i + READS_AT_ONCE).map(read))));
  return out;
}

async function readRange(chainId: number, presale: Address, fromBlock: number, toBlock: number) {
  const events = await getPresaleEventLogs(chainId, { fromBlock, toBlock, presale });
  const byBlock = new Map<bigint, PresaleEvent[]>();
  for (const e of events) byBlock.set(e.blockNumber, [...(byBlock.get(e.blockNumber) ?? []), e]);
  // A block's time is read once for all its events.
  const times = await inBatches([...byBlock.keys()], async (block) => {
    const header = await getBlockHeader(chainId, block);
    if (!header) throw new Error(`block ${block} of chain ${chainId} is not available yet`);
    return new Date(Number(header.timestamp) * 1000);
  });
  const folded = [...byBlock.values()].flatMap((blockEvents, i) => foldPresaleEvents(blockEvents, times[i]!));
  const outOfRange = folded.filter((c) => c.presaleId > BigInt(Number.MAX_SAFE_INTEGER));
  const changes = await inBatches(
    folded.filter((c) => !outOfRange.includes(c)),
    (c) => withRecord(chainId, c),
  );
  const ids = new Set(outOfRange.map((c) => c.presaleId));
  return { events, changes, outOfRange: events.filter((e) => ids.has(e.args.presaleId)) };
}

/** The chain's presale stream (PRESALE_ADDRESS_<id>), or null without a presale contract. */
export function presaleStream(chainId: number): EventStream<PresaleRange> | null {
  const presale = chainSettings(chainId).contracts.presale?.toLowerCase() as Address | undefined;
  if (!presale) return null;
  return {
    stream: PRESALES_STREAM,
    chainId,
    sources: [{ address: presale, startBlock: claimStartBlock() }],
    read: ({ fromBlock, toBlock }) => readRange(chainId, presale, fromBlock, toBlock),
    eventsOf: ({ events }) => events,
    async store(trx, { changes, outOfRange }) {
      for (const change of changes) await applyPresaleChangeIn(trx, chainId, presale, change);
      for (const e of outOfRange) {
        const error = `presale id ${e.args.presaleId} is out of range`;
        await quarantineEvent(
          trx,
          {
            stream: PRESALES_STREAM,
            chainId,
            address: presale,
            blockNumber: Number(e.blockNumber),
            logIndex: e.logIndex,
            txHash: e.transactionHash,
            reason: "unstorable",
            error,
          },
          new Error(error),
        );
      }
      return { stored: changes.length, setAside: outOfRange };
    },
  };
}

/** Follows the presale contract's events with the claim streams' EARNINGS_INDEX_* settings. */
export async function indexPresaleEvents(chainId: number, options: Partial<FollowOptions> = {}) {
  const stream = presaleStream(chainId);
  if (!stream) return { chainId, presale: null, fromBlock: null, toBlock: null, ranges: 0, events: 0, presales: 0 };
  const walk = await followStream(stream, { ...claimFollowOptions(), ...options });
  return {
    chainId,
    presale: stream.sources[0]!.address,
    fromBlock: walk.fromBlock,
    toBlock: walk.toBlock,
    ranges: walk.ranges,
    events: walk.events,
    presales: walk.stored,
  };
}
