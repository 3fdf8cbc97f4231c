// The TokenCreated indexer: the follower (lib/platform/chain/follower.ts) walks every indexed factory block range by
// block range from its checkpoint, so tokens deployed straight at the factory (not through this API) are listed too.
// Each run first re-reads the last TOKEN_INDEX_REORG_DEPTH blocks before the checkpoint: a token whose deployment
// moved to another block in a reorg is upserted again with its new block, transaction and time. Re-running changes
// nothing. `npm run tokens -- backfill` walks the same stream (backfill.ts).
import type { Insertable } from "kysely";
import { db, type Database } from "@/db";
import type { TokensTable } from "@/db/tables/core";
import {
  isLegacyTokenCreated,
  readTokenCreatedLogs,
  type EventLocation,
  type TokenCreatedEvent,
  type TokenGeneration,
  type UndecodableLog,
} from "@/lib/platform/chain";
import { batchShape, inTurns } from "@/lib/platform/chain/batched";
import { type EventStream, type FollowedRange, type FollowOptions, followStream } from "@/lib/platform/chain/follower";
import { backfillStream, readCheckpoint, readCheckpoints } from "@/lib/platform/checkpoints";
import {
  isEventError,
  type QuarantinedEvent,
  type QuarantineReason,
  quarantineEvent,
  resolveQuarantinedEvent,
} from "@/lib/platform/quarantine";
import { log } from "@/lib/core/log";
import { config } from "@/lib/core/config";
import { type IndexedFactory, indexedFactoryList } from "./factories";
import { rangeContexts } from "./lookup";
import { storeTokenRows, tokenRowFromEvent } from "./upsert";

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
  return readCheckpoint({ stream: TOKEN_CREATED_STREAM, chainId, address: factory });
}

/**
 * The last block up to which every token of the chain's indexed factories of these generations is stored: for each,
 * a running backfill's progress, else the indexer's checkpoint, else the block before its start; the least of them.
 * Null when no indexed factory is of these generations (nothing to wait for).
 */
export async function tokensStoredTo(chainId: number, types: readonly TokenGeneration[]): Promise<number | null> {
  const factories = indexedFactoryList(chainId).filter((f) => types.includes(f.type));
  if (!factories.length) return null;
  const addresses = factories.map((f) => f.address);
  const [main, backfill] = await Promise.all([
    readCheckpoints(TOKEN_CREATED_STREAM, chainId, addresses),
    readCheckpoints(backfillStream(TOKEN_CREATED_STREAM), chainId, addresses),
  ]);
  return Math.min(...factories.map((f) => backfill.get(f.address) ?? main.get(f.address) ?? f.startBlock - 1));
}

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
 * Stores one event's row in a transaction of its own; an error of the event's own (not the chain's or the database's
 * moment) sets it aside instead. Whether it was stored.
 */
export async function storeOrSetAside(
  chainId: number,
  at: EventLocation,
  row: Insertable<TokensTable>,
): Promise<boolean> {
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        await storeTokenRows([row], trx);
        await resolveQuarantinedEvent(trx, setAside(chainId, at, "unstorable", ""));
      });
    return true;
  } catch (error) {
    if (!isEventError(error)) throw error;
    log.warn("token event set aside: its row was refused", { chainId, txHash: at.transactionHash, error });
    await setAsideEvent(chainId, at, error);
    return false;
  }
}

/** Sets aside an event whose row was refused (the deploy job's, when its transaction is mined). */
export async function setAsideEvent(chainId: number, at: EventLocation, error: unknown): Promise<void> {
  await quarantineEvent(db(), setAside(chainId, at, "unstorable", error), error);
}

/** Logs of a range that are not TokenCreated, recorded beside its tokens. */
async function setAsideUndecodable(db: Database, chainId: number, logs: UndecodableLog[]): Promise<void> {
  for (const u of logs) await quarantineEvent(db, setAside(chainId, u, "undecodable", u.error));
}

/** Rows written by one storeTokenRows call of a range's store (its statements write 500 rows each). */
const ROWS_PER_STORE = 500;

/** A range read: each event's place and row (built outside the store's transaction), and the logs set aside. */
type PreparedRange = { tokens: { at: EventLocation; row: Insertable<TokensTable> }[]; undecodable: UndecodableLog[] };

/**
 * A range's events cut into slices whose reads (the deploying calls of up to `calls` v4 transactions, and one block
 * header) fit one batch. A transaction's events stay in one slice; a range of earlier generations is one slice.
 */
function* callSlices(events: readonly TokenCreatedEvent[], calls: number): Generator<TokenCreatedEvent[]> {
  const txs = new Set<string>();
  let slice: TokenCreatedEvent[] = [];
  for (const e of events) {
    if (!isLegacyTokenCreated(e) && !txs.has(e.transactionHash)) {
      if (txs.size >= calls) {
        yield slice;
        slice = [];
        txs.clear();
      }
      txs.add(e.transactionHash);
    }
    slice.push(e);
  }
  if (slice.length) yield slice;
}

/** Where an event sits, alone: a range holds this and the row, not the event's texts or its deploying call. */
const placeOf = ({ address, blockNumber, blockHash, transactionHash, transactionIndex, logIndex }: EventLocation) => ({
  address,
  blockNumber,
  blockHash,
  transactionHash,
  transactionIndex,
  logIndex,
});

/** A slice's events as rows, from their contexts (rangeContexts). */
async function sliceRows(chainId: number, slice: TokenCreatedEvent[]): Promise<PreparedRange["tokens"]> {
  const contexts = await rangeContexts(chainId, slice);
  return slice.map((e, i) => ({ at: placeOf(e), row: tokenRowFromEvent(e, contexts[i]!) }));
}

/**
 * A range's logs as rows, with each event's block time and deploying call, outside the range's transaction. The calls
 * are read a batch-sized slice at a time, as many slices at once as batches in flight (the requests of one
 * rangeContexts over the range), and each slice becomes rows at once: a dense range's calls, decoded configurations
 * and event texts are never held for thousands of tokens.
 */
async function readRange(chainId: number, range: FollowedRange): Promise<PreparedRange> {
  const { events, undecodable } = await readTokenCreatedLogs(chainId, { ...range, factories: range.addresses });
  const { readsPerBatch, batchesInFlight } = batchShape();
  const slices = [...callSlices(events, Math.max(1, readsPerBatch - 1))];
  const prepared: PreparedRange["tokens"][] = [];
  await inTurns(slices.length, batchesInFlight, async (i) => {
    prepared[i] = await sliceRows(chainId, slices[i]!);
  });
  return { tokens: prepared.flat(), undecodable };
}

/** The TokenCreated stream of a chain's indexed factories, for the follower. */
export function tokenCreatedStream(
  chainId: number,
  factories: readonly IndexedFactory[] = indexedFactoryList(chainId),
): EventStream<PreparedRange> {
  return {
    stream: TOKEN_CREATED_STREAM,
    chainId,
    // Each factory from its own start block (its deployment), never below the chain's.
    sources: factories.map(({ address, startBlock }) => ({ address, startBlock })),
    read: (range) => readRange(chainId, range),
    // Its read is the chain's alone: the next range is read while this one is stored.
    readAhead: true,
    eventsOf: ({ tokens }) => tokens.map((t) => t.at),
    async store(trx, { tokens, undecodable }) {
      // A slice at a time: the rows storeTokenRows answers with are let go before the next slice is written.
      for (let i = 0; i < tokens.length; i += ROWS_PER_STORE)
        await storeTokenRows(
          tokens.slice(i, i + ROWS_PER_STORE).map((t) => t.row),
          trx,
        );
      await setAsideUndecodable(trx, chainId, undecodable);
      return { stored: tokens.length, setAside: undecodable };
    },
    // One event spoiled the range's transaction: store them one at a time, setting aside the ones refused.
    async storeApart({ tokens, undecodable }) {
      const refused: EventLocation[] = [];
      for (const { at, row } of tokens) if (!(await storeOrSetAside(chainId, at, row))) refused.push(at);
      await setAsideUndecodable(db(), chainId, undecodable);
      return { stored: tokens.length - refused.length, setAside: [...refused, ...undecodable] };
    },
  };
}

/** The follower's options for the TokenCreated stream (TOKEN_INDEX_*); a backfill adds its own. */
export function tokenCreatedFollowOptions(): FollowOptions {
  const cfg = config();
  return {
    maxBlockRange: cfg.TOKEN_INDEX_BLOCK_RANGE,
    reorgDepth: cfg.TOKEN_INDEX_REORG_DEPTH,
    maxRanges: cfg.TOKEN_INDEX_MAX_RANGES,
  };
}

/**
 * One run over every indexed factory of a chain: up to TOKEN_INDEX_MAX_RANGES ranges to the head, re-reading the last
 * TOKEN_INDEX_REORG_DEPTH blocks before each checkpoint. One run per factory in the answer.
 */
export async function followTokenCreated(chainId: number): Promise<FollowRun[]> {
  const factories = indexedFactoryList(chainId);
  if (!factories.length) return [];
  const walk = await followStream(tokenCreatedStream(chainId, factories), tokenCreatedFollowOptions());
  return walk.sources.map((w) => ({
    chainId,
    factory: w.address,
    fromBlock: w.fromBlock,
    toBlock: w.toBlock,
    ranges: w.ranges,
    tokens: w.events,
    setAside: w.setAside,
  }));
}
