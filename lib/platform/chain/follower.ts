// The one log follower of every chain event stream (TokenCreated of each factory, fee claims, airdrop claims, presale
// events). It walks block ranges from each followed contract's checkpoint, reads a range with the stream's `read`
// (chain calls, outside any transaction: PGlite has one session) and stores it with the stream's `store` in the
// transaction that moves the checkpoints, so a run killed at any point resumes with no gap and no duplicate. The range
// adapts to the RPC: halved when the provider refuses its size or its result count, kept and retried after a rate
// limit (Retry-After, else a doubling backoff), doubled back after a few ranges that passed. docs/indexing.md.
import type { Address } from "viem";
import { BaseError, HttpRequestError, ResponseBodyTooLargeError, RpcRequestError, TimeoutError } from "viem";
import type { Transaction } from "kysely";
import { db, type Database } from "@/db";
import type { DB } from "@/db/types";
import { remember } from "@/lib/core/remember";
import { recordIndexerPosition } from "@/lib/core/telemetry";
import {
  advanceCheckpoints,
  advanceCheckpointsFrom,
  backfillStream,
  deleteCheckpoint,
  readCheckpoints,
} from "@/lib/platform/checkpoints";
import { isEventError } from "@/lib/platform/quarantine";
import { ChainUnavailableError } from "./errors";
import { getLatestBlockNumber } from "./reads";

/** A range the follower reads: the contracts whose checkpoints it extends. */
export type FollowedRange = { fromBlock: number; toBlock: number; addresses: Address[] };

/** What storing a range did: rows written, and the events set aside (quarantined), each naming its emitter. */
export type StoredCounts = { stored: number; setAside: readonly { address: string }[] };

/** One stream of events on one chain, as the follower walks it. */
export type EventStream<T> = {
  /** The checkpoint store's stream name ("token-created", "fee-claims", …). */
  stream: string;
  chainId: number;
  /** The followed contracts, each with the block it is read from without a checkpoint (its deployment block). */
  sources: readonly { address: Address; startBlock: number }[];
  /** Reads a range (logs and what their rows need from the chain). Never called inside a transaction. */
  read: (range: FollowedRange) => Promise<T>;
  /**
   * Its read touches no database: the next range is read while this one is stored. (A read that queries the database
   * would wait on the range's transaction where there is one connection, as with PGlite.)
   */
  readAhead?: boolean;
  /** The events of a range's data, each naming its emitter: counted per contract. */
  eventsOf: (data: T) => readonly { address: string }[];
  /** Stores a range's rows in the transaction that moves its checkpoints. */
  store: (trx: Transaction<DB>, data: T, range: FollowedRange) => Promise<StoredCounts>;
  /**
   * When an event's own error (not the chain's or the database's moment) spoiled the range's transaction: stores the
   * range again outside it, setting aside what is refused. Without it the error stops the walk.
   */
  storeApart?: (data: T, range: FollowedRange) => Promise<StoredCounts>;
};

export type FollowProgress = {
  stream: string;
  chainId: number;
  range: FollowedRange;
  /** Blocks covered by this walk so far, and blocks from its first block to its target. */
  blocksDone: number;
  blocksTotal: number;
  events: number;
  stored: number;
  setAside: number;
  /** The range size the follower uses now. */
  rangeSize: number;
};

export type FollowOptions = {
  /** The largest range read at once (the stream's *_BLOCK_RANGE); the adapted size never exceeds it. */
  maxBlockRange: number;
  /** Re-read this many blocks before the checkpoint (a reorg may have replaced them). */
  reorgDepth?: number;
  /** Stop this many blocks behind the head (when no `toBlock`). */
  confirmations?: number;
  /** The last block to read; default the head less `confirmations`. */
  toBlock?: number;
  /** Never read past this block, whatever `toBlock` or the head say (a stream waiting on another). */
  notAfter?: number;
  /** The chain's head when the caller has just read it (the head follower): saves one eth_blockNumber. */
  head?: number;
  /** At most this many ranges in this walk. */
  maxRanges?: number;
  /** Stop before a range that would start after this time (ms since the epoch). */
  deadline?: number;
  /**
   * A backfill: progress is kept under `<stream>:backfill` (forgotten once the target is reached), starting at
   * `fromBlock` (default: the stream's checkpoint + 1, else each contract's start block). The stream's checkpoint moves
   * along whenever a range joins it.
   */
  backfill?: { fromBlock?: number };
  onProgress?: (progress: FollowProgress) => void;
};

export type SourceWalk = {
  address: Address;
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  events: number;
  setAside: number;
};

export type FollowResult = {
  stream: string;
  chainId: number;
  head: number;
  target: number;
  fromBlock: number | null;
  toBlock: number | null;
  ranges: number;
  events: number;
  stored: number;
  setAside: number;
  /** Whether every contract reached the target. */
  complete: boolean;
  sources: SourceWalk[];
};

/** Ranges that passed in a row before the size doubles back. */
export const GROW_AFTER = 4;
/** Rate-limited tries of one range before the walk stops (the next run resumes). */
export const MAX_RATE_LIMITED_TRIES = 6;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 60_000;

/** A provider's refusal of a range's size or of its result count (Infura, Alchemy, QuickNode, Ankr, geth, Erigon…). */
const TOO_LARGE =
  /more than [\d,]+ results|too many (results|logs|blocks)|range (is )?too (large|wide|big)|block range|range limit|limited to a? ?[\d,]+ ?(block)?s? ?range|log response size|response size|exceeds? max(imum)? results|max(imum)? (block )?range|query timeout|reduce (your|the) (block )?range|requested too many/i;
const RATE_LIMITED = /rate limit|too many requests|request limit|requests per second|compute units|capacity/i;

export type RangeError = { kind: "too_large" } | { kind: "rate_limited"; retryAfterMs: number | null } | null;

function retryAfterOf(error: BaseError): number | null {
  const http = error.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  const value = http?.headers?.get("Retry-After");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** What a failed range read says about the range: too large (halve it), rate limited (wait), or neither. */
export function classifyRangeError(error: unknown): RangeError {
  const cause = error instanceof ChainUnavailableError ? error.cause : error;
  if (!(cause instanceof BaseError)) return null;
  const texts: string[] = [];
  let status: number | undefined;
  let code: number | undefined;
  cause.walk((e) => {
    if (e instanceof Error) texts.push(e.message, (e as BaseError).details ?? "");
    if (e instanceof HttpRequestError) status ??= e.status;
    if (e instanceof RpcRequestError) code ??= e.code;
    return false;
  });
  const text = texts.join("\n");
  if (status === 429 || code === 429 || code === -32007 || RATE_LIMITED.test(text))
    return { kind: "rate_limited", retryAfterMs: retryAfterOf(cause) };
  // viem refuses an answer over its body limit (10 MiB): thousands of logs with long texts.
  const tooLong = (e: unknown) => e instanceof TimeoutError || e instanceof ResponseBodyTooLargeError;
  if (status === 413 || TOO_LARGE.test(text) || cause.walk(tooLong)) return { kind: "too_large" };
  return null;
}

/** The adapted range size per (stream, chain), kept across runs in the process. */
const sizes = remember("chain.follower.sizes", () => new Map<string, number>());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Walker = {
  size: number;
  passed: number;
  readonly max: number;
};

/** Reads [from, to] (or a smaller range from `from`), adapting the walker's size. Null: the deadline came first. */
async function readAdapting<T>(
  s: EventStream<T>,
  walker: Walker,
  range: (size: number) => FollowedRange,
  deadline: number,
): Promise<{ data: T; range: FollowedRange } | null> {
  let limited = 0;
  for (;;) {
    const r = range(walker.size);
    try {
      const data = await s.read(r);
      walker.passed += 1;
      if (walker.passed >= GROW_AFTER && walker.size < walker.max) {
        walker.size = Math.min(walker.max, walker.size * 2);
        walker.passed = 0;
      }
      return { data, range: r };
    } catch (error) {
      const why = classifyRangeError(error);
      const blocks = r.toBlock - r.fromBlock + 1;
      if (why?.kind === "too_large" && blocks > 1) {
        walker.size = Math.max(1, Math.floor(blocks / 2));
        walker.passed = 0;
        continue;
      }
      if (why?.kind === "rate_limited" && ++limited < MAX_RATE_LIMITED_TRIES) {
        const wait = Math.min(BACKOFF_MAX_MS, why.retryAfterMs ?? BACKOFF_BASE_MS * 2 ** (limited - 1));
        if (Date.now() + wait > deadline) return null;
        await sleep(wait);
        continue;
      }
      throw error;
    }
  }
}

/**
 * Follows one stream on one chain from its checkpoints up to the target, at most `maxRanges` ranges and until the
 * deadline. Contracts whose next block is the same are read together (one getLogs for all factories once they are
 * level); a contract further ahead joins when the walk reaches it, so each one's covered blocks stay contiguous.
 */
export async function followStream<T>(s: EventStream<T>, options: FollowOptions): Promise<FollowResult> {
  const { chainId } = s;
  const head = options.head ?? Number(await getLatestBlockNumber(chainId));
  const target = Math.min(options.toBlock ?? head - (options.confirmations ?? 0), options.notAfter ?? Infinity);
  const progressStream = options.backfill ? backfillStream(s.stream) : s.stream;
  const addresses = [...new Set(s.sources.map((x) => x.address.toLowerCase() as Address))];
  const startOf = new Map(s.sources.map((x) => [x.address.toLowerCase(), x.startBlock]));
  const main = await readCheckpoints(s.stream, chainId, addresses);
  const own = options.backfill ? await readCheckpoints(progressStream, chainId, addresses) : main;
  const next = new Map<string, number>();
  for (const a of addresses) {
    const start = startOf.get(a)!;
    const at = own.get(a);
    if (options.backfill) {
      const from = options.backfill.fromBlock ?? (main.has(a) ? main.get(a)! + 1 : start);
      next.set(a, at === undefined ? from : Math.max(from, at + 1));
    } else {
      next.set(a, at === undefined ? start : Math.max(start, at + 1 - (options.reorgDepth ?? 0)));
    }
  }
  const key = `${s.stream}|${chainId}`;
  const walker: Walker = {
    size: Math.min(sizes.get(key) ?? options.maxBlockRange, options.maxBlockRange),
    passed: 0,
    max: options.maxBlockRange,
  };
  const result: FollowResult = {
    stream: s.stream,
    chainId,
    head,
    target,
    fromBlock: null,
    toBlock: null,
    ranges: 0,
    events: 0,
    stored: 0,
    setAside: 0,
    complete: false,
    sources: addresses.map((address) => ({
      address,
      fromBlock: null,
      toBlock: null,
      ranges: 0,
      events: 0,
      setAside: 0,
    })),
  };
  if (!addresses.length) return { ...result, complete: true };
  const walkOf = new Map(result.sources.map((w) => [w.address, w]));
  const firstBlock = Math.min(...next.values());
  const blocksTotal = Math.max(0, target - firstBlock + 1);
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  const advance = async (db: Database, range: FollowedRange) => {
    const addresses = range.addresses;
    await advanceCheckpoints(db, { stream: progressStream, chainId, addresses }, range.toBlock);
    if (options.backfill)
      await advanceCheckpointsFrom(
        db,
        { stream: s.stream, chainId, addresses },
        range,
        (address) => range.fromBlock <= startOf.get(address)!,
      );
  };

  let started = 0;
  /** Starts reading the next range from the contracts' next blocks; null when none is left or the run is over. */
  const readNext = () => {
    if (started >= (options.maxRanges ?? Number.POSITIVE_INFINITY) || Date.now() >= deadline) return null;
    const pending = [...next.values()].filter((b) => b <= target);
    if (!pending.length) return null;
    const from = Math.min(...pending);
    // A contract not read yet joins any range that reaches its start block: it has no event before it exists.
    const atStart = (a: string) => next.get(a) === startOf.get(a);
    // Another contract ahead of `from` joins at its own next block: the range stops just before it.
    const ahead = addresses.filter((a) => !atStart(a)).map((a) => next.get(a)!);
    const joinAt = Math.min(...ahead.filter((b) => b > from && b <= target), target + 1);
    started += 1;
    const reading = readAdapting(
      s,
      walker,
      (size) => {
        const toBlock = Math.min(from + size - 1, joinAt - 1);
        const group = addresses.filter((a) => next.get(a) === from || (atStart(a) && next.get(a)! <= toBlock));
        return { fromBlock: from, toBlock, addresses: group };
      },
      deadline,
    );
    reading.catch(() => {}); // awaited below, unless storing the range before it failed
    return reading;
  };

  let reading = readNext();
  while (reading) {
    const read = await reading;
    reading = null;
    if (!read) break;
    const { data, range } = read;
    const group = range.addresses;
    const firstOf = new Map(group.map((a) => [a, Math.max(range.fromBlock, next.get(a)!)]));
    for (const a of group) next.set(a, range.toBlock + 1);
    if (s.readAhead) reading = readNext();
    let counts: StoredCounts;
    try {
      counts = await db()
        .transaction()
        .execute(async (trx) => {
          const stored = await s.store(trx, data, range);
          await advance(trx, range);
          return stored;
        });
    } catch (error) {
      if (!s.storeApart || !isEventError(error)) throw error;
      counts = await s.storeApart(data, range);
      await advance(db(), range);
    }
    const events = s.eventsOf(data);
    for (const e of events) {
      const w = walkOf.get(e.address.toLowerCase() as Address);
      if (w) w.events += 1;
    }
    for (const a of group) {
      const w = walkOf.get(a)!;
      w.fromBlock ??= firstOf.get(a)!;
      w.toBlock = range.toBlock;
      w.ranges += 1;
    }
    result.fromBlock = result.fromBlock === null ? range.fromBlock : Math.min(result.fromBlock, range.fromBlock);
    result.toBlock = Math.max(result.toBlock ?? range.toBlock, range.toBlock);
    result.ranges += 1;
    result.events += events.length;
    result.stored += counts.stored;
    result.setAside += counts.setAside.length;
    for (const e of counts.setAside) {
      const w = walkOf.get(e.address.toLowerCase() as Address);
      if (w) w.setAside += 1;
    }
    options.onProgress?.({
      stream: s.stream,
      chainId,
      range,
      blocksDone: Math.min(blocksTotal, Math.max(0, Math.min(...next.values()) - firstBlock)),
      blocksTotal,
      events: result.events,
      stored: result.stored,
      setAside: result.setAside,
      rangeSize: walker.size,
    });
    if (!s.readAhead) reading = readNext();
  }
  sizes.set(key, walker.size);
  result.complete = [...next.values()].every((b) => b > target);
  if (options.backfill && result.complete)
    for (const address of addresses) await deleteCheckpoint({ stream: progressStream, chainId, address });
  if (!options.backfill)
    for (const w of result.sources)
      recordIndexerPosition(s.stream, chainId, w.address, head, w.toBlock ?? main.get(w.address) ?? head);
  return result;
}
