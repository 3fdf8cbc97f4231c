// The TokenCreated indexer: follows each indexed factory block range by block range from a checkpoint, so
// tokens deployed straight at the factory (not through this API) are listed too. Each run first re-reads
// the last TOKEN_INDEX_REORG_DEPTH blocks before the checkpoint: a token whose deployment moved to another
// block in a reorg is upserted again with its new block, transaction and time. Re-running changes nothing.
import type { Address } from "viem";
import { db, type Database } from "@/db";
import {
  getLatestBlockNumber,
  readTokenCreatedLogs,
  type EventLocation,
  type TokenCreatedEvent,
  type UndecodableLog,
} from "@/lib/platform/chain";
import {
  isEventError,
  type QuarantinedEvent,
  type QuarantineReason,
  quarantineEvent,
  resolveQuarantinedEvent,
} from "@/lib/platform/quarantine";
import { log } from "@/lib/core/log";
import { recordIndexerPosition } from "@/lib/core/telemetry";
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
  /** Events set aside (quarantined): undecodable, or refused by the database. */
  setAside: number;
};

export async function tokenIndexCheckpoint(chainId: number, factory: string): Promise<number | null> {
  return findTokenIndexCheckpoint(db(), chainId, factory.toLowerCase());
}

/**
 * Events prepared at once (a range's here, the re-read deployments' in reread.ts), each reading its block's time and
 * its deploying call: one by one, a backfill paid two round trips per token.
 */
export const EVENTS_AT_ONCE = 8;

/** The quarantine stream of the TokenCreated indexer. */
export const TOKEN_CREATED_STREAM = "token-created";

const setAside = (chainId: number, at: EventLocation, reason: QuarantineReason, error: unknown): QuarantinedEvent => ({
  stream: TOKEN_CREATED_STREAM,
  chainId,
  address: at.address,
  blockNumber: Number(at.blockNumber),
  logIndex: at.logIndex,
  txHash: at.transactionHash,
  reason,
  error: error instanceof Error ? error.message : String(error),
});

/**
 * Stores one event in a transaction of its own; an error of the event's own (not the chain's or the database's
 * moment) sets it aside instead. Whether it was stored.
 */
export async function storeOrSetAside(chainId: number, event: TokenCreatedEvent, ctx: IndexContext): Promise<boolean> {
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        await upsertIndexedToken(event, ctx, trx);
        await resolveQuarantinedEvent(trx, setAside(chainId, event, "unstorable", ""));
      });
    return true;
  } catch (error) {
    if (!isEventError(error)) throw error;
    log.warn("token event set aside: its row was refused", { chainId, txHash: event.transactionHash, error });
    await setAsideEvent(chainId, event, error);
    return false;
  }
}

/** Sets aside an event whose row was refused (the deploy job's, when its transaction is mined). */
export async function setAsideEvent(chainId: number, event: TokenCreatedEvent, error: unknown): Promise<void> {
  await quarantineEvent(db(), setAside(chainId, event, "unstorable", error), error);
}

/** Logs of a range that are not TokenCreated, recorded beside its tokens. */
async function setAsideUndecodable(executor: Database, chainId: number, logs: UndecodableLog[]): Promise<void> {
  for (const u of logs) await quarantineEvent(executor, setAside(chainId, u, "undecodable", u.error));
}

async function storeRange(
  chainId: number,
  factory: string,
  toBlock: number,
  { events, undecodable }: { events: TokenCreatedEvent[]; undecodable: UndecodableLog[] },
): Promise<number> {
  // Block times and deploying calls first: no chain call may run inside the transaction (PGlite has one session).
  const shared: SharedReads = { times: new Map(), calls: new Map() };
  const prepare = async (e: TokenCreatedEvent): Promise<[TokenCreatedEvent, IndexContext]> => [
    e,
    await eventContext(chainId, e, shared),
  ];
  const indexed: Array<[TokenCreatedEvent, IndexContext]> = [];
  for (let i = 0; i < events.length; i += EVENTS_AT_ONCE)
    indexed.push(...(await Promise.all(events.slice(i, i + EVENTS_AT_ONCE).map(prepare))));
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        for (const [e, ctx] of indexed) await upsertIndexedToken(e, ctx, trx);
        await setAsideUndecodable(trx, chainId, undecodable);
        await advanceTokenIndexCheckpoint(trx, chainId, factory, toBlock);
      });
    return undecodable.length;
  } catch (error) {
    if (!isEventError(error)) throw error;
    // One event spoiled the range's transaction: store them one at a time, setting aside the ones refused.
    let refused = 0;
    for (const [e, ctx] of indexed) if (!(await storeOrSetAside(chainId, e, ctx))) refused += 1;
    await setAsideUndecodable(db(), chainId, undecodable);
    await advanceTokenIndexCheckpoint(db(), chainId, factory, toBlock);
    return refused + undecodable.length;
  }
}

async function followFactory(chainId: number, factory: Address, head: number): Promise<FollowRun> {
  const cfg = config();
  const run: FollowRun = { chainId, factory, fromBlock: null, toBlock: null, ranges: 0, tokens: 0, setAside: 0 };
  const checkpoint = await tokenIndexCheckpoint(chainId, factory);
  const start = tokenIndexStartBlock(chainId);
  let from = checkpoint === null ? start : Math.max(start, checkpoint + 1 - cfg.TOKEN_INDEX_REORG_DEPTH);
  while (run.ranges < cfg.TOKEN_INDEX_MAX_RANGES && from <= head) {
    const to = Math.min(from + cfg.TOKEN_INDEX_BLOCK_RANGE - 1, head);
    const logs = await readTokenCreatedLogs(chainId, { fromBlock: from, toBlock: to, factories: [factory] });
    const aside = await storeRange(chainId, factory, to, logs);
    run.fromBlock ??= from;
    run.toBlock = to;
    run.ranges += 1;
    run.tokens += logs.events.length;
    run.setAside += aside;
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
  for (const run of runs) recordIndexerPosition(TOKEN_CREATED_STREAM, chainId, run.factory, head, run.toBlock ?? head);
  return runs;
}
