// The TokenCreated indexer: follows each indexed factory block range by block range from a checkpoint, so
// tokens deployed straight at the factory (not through this API) are listed too. Each run first re-reads
// the last TOKEN_INDEX_REORG_DEPTH blocks before the checkpoint: a token whose deployment moved to another
// block in a reorg is upserted again with its new block, transaction and time. Re-running changes nothing.
import type { Address } from "viem";
import { db } from "@/db";
import { getLatestBlockNumber, getTokenCreatedLogs, type TokenCreatedEvent } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { advanceTokenIndexCheckpoint, findTokenIndexCheckpoint } from "@/lib/domains/launch/queries/token-index";
import { indexedFactories, tokenIndexStartBlock } from "./factories";
import { eventContext, type SharedReads } from "./lookup";
import { type IndexContext, upsertIndexedToken } from "./upsert";

export type FollowRun = {
  chainId: number;
  factory: string;
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  tokens: number;
};

export async function tokenIndexCheckpoint(chainId: number, factory: string): Promise<number | null> {
  return findTokenIndexCheckpoint(db(), chainId, factory.toLowerCase());
}

/**
 * Events prepared at once (a range's here, the re-read deployments' in reread.ts), each reading its block's time and
 * its deploying call: one by one, a backfill paid two round trips per token.
 */
export const EVENTS_AT_ONCE = 8;

async function storeRange(
  chainId: number,
  factory: string,
  toBlock: number,
  events: TokenCreatedEvent[],
): Promise<void> {
  // Block times and deploying calls first: no chain call may run inside the transaction (PGlite has one session).
  const shared: SharedReads = { times: new Map(), calls: new Map() };
  const prepare = async (e: TokenCreatedEvent): Promise<[TokenCreatedEvent, IndexContext]> => [
    e,
    await eventContext(chainId, e, shared),
  ];
  const indexed: Array<[TokenCreatedEvent, IndexContext]> = [];
  for (let i = 0; i < events.length; i += EVENTS_AT_ONCE)
    indexed.push(...(await Promise.all(events.slice(i, i + EVENTS_AT_ONCE).map(prepare))));
  await db()
    .transaction()
    .execute(async (trx) => {
      for (const [e, ctx] of indexed) await upsertIndexedToken(e, ctx, trx);
      await advanceTokenIndexCheckpoint(trx, chainId, factory, toBlock);
    });
}

async function followFactory(chainId: number, factory: Address, head: number): Promise<FollowRun> {
  const cfg = config();
  const run: FollowRun = { chainId, factory, fromBlock: null, toBlock: null, ranges: 0, tokens: 0 };
  const checkpoint = await tokenIndexCheckpoint(chainId, factory);
  const start = tokenIndexStartBlock(chainId);
  let from = checkpoint === null ? start : Math.max(start, checkpoint + 1 - cfg.TOKEN_INDEX_REORG_DEPTH);
  while (run.ranges < cfg.TOKEN_INDEX_MAX_RANGES && from <= head) {
    const to = Math.min(from + cfg.TOKEN_INDEX_BLOCK_RANGE - 1, head);
    const events = await getTokenCreatedLogs(chainId, { fromBlock: from, toBlock: to, factories: [factory] });
    await storeRange(chainId, factory, to, events);
    run.fromBlock ??= from;
    run.toBlock = to;
    run.ranges += 1;
    run.tokens += events.length;
    from = to + 1;
  }
  return run;
}

/** One run over every indexed factory of a chain. */
export async function followTokenCreated(chainId: number): Promise<FollowRun[]> {
  const factories = indexedFactories(chainId);
  if (!factories.length) return [];
  const head = Number(await getLatestBlockNumber(chainId));
  const runs: FollowRun[] = [];
  for (const factory of factories) runs.push(await followFactory(chainId, factory, head));
  return runs;
}
