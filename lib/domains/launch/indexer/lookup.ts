// Indexing one token: from a known transaction (its receipt), or by its address (TokenCreated's indexed
// tokenAddress topic, searched back from the head across the indexed factories).
import type { Address, Hash } from "viem";
import { db } from "@/db";
import {
  blockTimeOf,
  chainSettings,
  findTokenCreatedOf,
  getBlockHeader,
  getLatestBlockNumber,
  getReceipt,
  getTokenCreatedLogs,
  getTransactionCall,
  isLegacyTokenCreated,
  readInBatches,
  type TokenCreatedEvent,
} from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { findDeployTransactionHash } from "@/lib/domains/launch/queries/deploy-requests";
import { findTokenTxHash } from "@/lib/domains/tokens/service";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import { lookupUsersByFids } from "@/lib/domains/users/service";
import { indexedFactories, isIndexedFactory, tokenIndexStartBlock } from "./factories";
import { deploymentOf } from "./extensions";
import { type IndexContext, upsertIndexedToken } from "./upsert";

type TransactionCall = Awaited<ReturnType<typeof getTransactionCall>>;

export type IndexOutcome = { status: "indexed"; token: TokenRow } | { status: "pending" } | { status: "not_found" };

/** Block time of an event (the row's deployed_at). */
export async function blockTime(chainId: number, blockNumber: bigint): Promise<Date> {
  const header = await getBlockHeader(chainId, blockNumber);
  return header ? new Date(Number(header.timestamp) * 1000) : new Date();
}

/**
 * A submitter's FID counts only when the user holds the deploying or admin address (verified or custody):
 * anyone signed in could otherwise claim a token that names no requester.
 */
async function provenFid(fid: number | null, event: TokenCreatedEvent): Promise<number | null> {
  if (fid === null) return null;
  const user = (await lookupUsersByFids([fid])).users.get(fid);
  const held = new Set([...(user?.verified_addresses ?? []), user?.custody_address ?? ""].map((a) => a.toLowerCase()));
  return held.has(event.msgSender.toLowerCase()) || held.has(event.tokenAdmin.toLowerCase()) ? fid : null;
}

/**
 * What an event's row needs from the chain besides the event: its block's time, and for v4 the deployment's
 * configuration when the emitting transaction called the factory itself (read by position in the block). An event of
 * an earlier generation carries its whole row: its deploying call is not read.
 */
export async function eventContext(chainId: number, event: TokenCreatedEvent): Promise<IndexContext> {
  const [deployedAt, call] = await Promise.all([
    blockTime(chainId, event.blockNumber),
    isLegacyTokenCreated(event) ? null : getTransactionCall(chainId, event.blockHash, event.transactionIndex),
  ]);
  return { chainId, deployedAt, deployment: deploymentOf(event, call) };
}

/**
 * The contexts of a range's events (eventContext for each), read together in full JSON-RPC batches (readInBatches):
 * each block's time once, each v4 transaction's call once. On a chain of fixed block time, the first event's block
 * header, read with the calls, proves the rule at this range: the other blocks' times follow from their numbers.
 */
export async function rangeContexts(chainId: number, events: readonly TokenCreatedEvent[]): Promise<IndexContext[]> {
  const rule = chainSettings(chainId).blockTime;
  const blocks = [...new Set(events.map((e) => e.blockNumber))];
  const times = new Map<bigint, Date>();
  const readTime = (block: bigint) => async () => void times.set(block, await blockTime(chainId, block));
  const calls = new Map<string, TransactionCall | null>();
  const reads: Array<() => Promise<void>> = [];
  let ruleHolds = false;
  if (rule && blocks.length)
    reads.push(async () => {
      const anchor = await getBlockHeader(chainId, blocks[0]!);
      if (!anchor) return;
      times.set(anchor.number, new Date(Number(anchor.timestamp) * 1000));
      ruleHolds = Number(anchor.timestamp) === blockTimeOf(rule, anchor.number);
    });
  else reads.push(...blocks.map(readTime));
  for (const e of events) {
    if (isLegacyTokenCreated(e) || calls.has(e.transactionHash)) continue;
    calls.set(e.transactionHash, null);
    reads.push(async () => {
      calls.set(e.transactionHash, await getTransactionCall(chainId, e.blockHash, e.transactionIndex));
    });
  }
  await readInBatches(reads);
  if (rule && ruleHolds) for (const b of blocks) times.set(b, new Date(blockTimeOf(rule, b) * 1000));
  else if (rule) await readInBatches(blocks.filter((b) => !times.has(b)).map(readTime));
  return events.map((e) => ({
    chainId,
    deployedAt: times.get(e.blockNumber)!,
    deployment: deploymentOf(e, isLegacyTokenCreated(e) ? null : (calls.get(e.transactionHash) ?? null)),
  }));
}

async function store(chainId: number, event: TokenCreatedEvent, attributedFid: number | null): Promise<TokenRow> {
  const ctx = await eventContext(chainId, event);
  return upsertIndexedToken(event, { ...ctx, attributedFid: await provenFid(attributedFid, event) });
}

/**
 * The TokenCreated of `token` in a transaction (without `token`: its first one), from an indexed factory only, read
 * as that factory's generation.
 */
export async function indexFromTransaction(
  chainId: number,
  txHash: Hash,
  token?: Address,
  attributedFid: number | null = null,
): Promise<IndexOutcome> {
  const receipt = await getReceipt(chainId, txHash);
  if (!receipt) return { status: "pending" };
  const event = findTokenCreatedOf(chainId, receipt).find(
    (e) => (!token || e.tokenAddress.toLowerCase() === token.toLowerCase()) && isIndexedFactory(chainId, e.address),
  );
  return event ? { status: "indexed", token: await store(chainId, event, attributedFid) } : { status: "not_found" };
}

/**
 * Indexes a token again from its TokenCreated in a known block of a known factory (read by block, not by transaction
 * hash, which nodes index for recent blocks only).
 */
export async function indexAtBlock(
  chainId: number,
  token: Address,
  factory: Address,
  blockNumber: number,
): Promise<IndexOutcome> {
  if (!isIndexedFactory(chainId, factory)) return { status: "not_found" };
  const [event] = await getTokenCreatedLogs(chainId, {
    fromBlock: blockNumber,
    toBlock: blockNumber,
    factories: [factory],
    tokenAddress: token,
  });
  return event ? { status: "indexed", token: await store(chainId, event, null) } : { status: "not_found" };
}

/** A transaction already known for the token: its row, or a deploy request that sent it. */
async function knownTransaction(chainId: number, token: Address): Promise<Hash | null> {
  const address = token.toLowerCase();
  const indexed = await findTokenTxHash(db(), chainId, address);
  if (indexed) return indexed as Hash;
  return (await findDeployTransactionHash(db(), chainId, address)) as Hash | null;
}

/**
 * Indexes a token by address: through a transaction already known for it, else by searching TokenCreated
 * for it back from the head, TOKEN_LOOKUP_BLOCK_RANGE blocks at a time, at most TOKEN_LOOKUP_MAX_RANGES
 * ranges and never below the chain's start block (tokenIndexStartBlock; older tokens are the indexer's).
 * `maySearch` is asked only when a search is needed (a caller's limit on searches): false, or a throw, and none is made.
 */
export async function indexByAddress(
  chainId: number,
  token: Address,
  attributedFid: number | null = null,
  maySearch?: () => Promise<boolean>,
): Promise<IndexOutcome> {
  const known = await knownTransaction(chainId, token);
  if (known) {
    const outcome = await indexFromTransaction(chainId, known, token, attributedFid);
    if (outcome.status === "indexed") return outcome;
  }
  if (maySearch && !(await maySearch())) return { status: "not_found" };
  const factories = indexedFactories(chainId);
  if (!factories.length) return { status: "not_found" };
  const cfg = config();
  let to = await getLatestBlockNumber(chainId);
  const floor = BigInt(tokenIndexStartBlock(chainId));
  const span = BigInt(cfg.TOKEN_LOOKUP_BLOCK_RANGE);
  for (let i = 0; i < cfg.TOKEN_LOOKUP_MAX_RANGES && to >= floor; i++) {
    const from = to - span + 1n > floor ? to - span + 1n : floor;
    const [event] = await getTokenCreatedLogs(chainId, {
      fromBlock: from,
      toBlock: to,
      factories,
      tokenAddress: token,
    });
    if (event) return { status: "indexed", token: await store(chainId, event, attributedFid) };
    to = from - 1n;
  }
  return { status: "not_found" };
}
