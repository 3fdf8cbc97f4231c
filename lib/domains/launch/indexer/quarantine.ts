// The TokenCreated events the follower set aside: listed for operators, and tried again after a fix (the event read
// again from its block, then stored as the follower stores one).
import { z } from "zod";
import { readTokenCreatedLogs } from "@/lib/platform/chain";
import { encodeCursor, zCursorOf } from "@/lib/core/cursor";
import { zBool, zLimit } from "@/lib/core/input";
import { checksum } from "@/lib/core/evm";
import { checksummedAddress, bytes32Hex } from "@/lib/core/answers";
import { db } from "@/db";
import {
  listQuarantinedEvents,
  quarantineEvent,
  resolveQuarantinedEvent,
  type QuarantinedEventRow,
} from "@/lib/platform/quarantine";
import { isIndexedFactory } from "./factories";
import { storeOrSetAside, TOKEN_CREATED_STREAM } from "./follow";
import { tokenRowFromEvent } from "./upsert";
import { eventContext } from "./lookup";

export type RetryResult = "indexed" | "refused" | "undecodable" | "gone" | "not_indexed";

/**
 * Tries one quarantined event again: `indexed` (stored, resolved), `refused` or `undecodable` (still set aside, its
 * last error and attempts updated), `gone` (no such log any more: a reorg removed it; resolved) or `not_indexed`
 * (its factory is no longer indexed here; left open).
 */
async function retryOne(row: QuarantinedEventRow): Promise<RetryResult> {
  if (!isIndexedFactory(row.chainId, row.address)) return "not_indexed";
  const { events, undecodable } = await readTokenCreatedLogs(row.chainId, {
    fromBlock: row.blockNumber,
    toBlock: row.blockNumber,
    factories: [row.address as `0x${string}`],
  });
  const same = (e: { transactionHash: string; logIndex: number }) =>
    e.logIndex === row.logIndex && e.transactionHash.toLowerCase() === row.txHash;
  const event = events.find(same);
  if (event)
    return (await storeOrSetAside(row.chainId, event, tokenRowFromEvent(event, await eventContext(row.chainId, event))))
      ? "indexed"
      : "refused";
  const still = undecodable.find(same);
  if (!still) {
    await resolveQuarantinedEvent(db(), row);
    return "gone";
  }
  await quarantineEvent(db(), { ...row, reason: "undecodable", error: still.error });
  return "undecodable";
}

/** Open TokenCreated events after id `afterId`, at most `limit`, tried again in id order; `onResult` hears each. */
export async function retryQuarantinedTokenEvents(options: {
  afterId?: number;
  limit: number;
  onResult?: (row: QuarantinedEventRow, result: RetryResult) => void;
}): Promise<{ tried: number; next: number | null }> {
  const rows = await listQuarantinedEvents({
    afterId: options.afterId,
    limit: options.limit,
    stream: TOKEN_CREATED_STREAM,
  });
  for (const row of rows) options.onResult?.(row, await retryOne(row));
  return { tried: rows.length, next: rows.length === options.limit ? rows.at(-1)!.id : null };
}

export const quarantinedEventsQuery = z.object({
  limit: zLimit(100, 50),
  cursor: zCursorOf(z.object({ id: z.number().int().nonnegative() }), (c) => c.id)
    .optional()
    .describe("the `nextCursor` of the previous page"),
  all: zBool.optional().describe("also the resolved ones (default: open ones only)"),
});

const quarantinedEvent = z.object({
  id: z.number().int(),
  stream: z.string().describe("the indexer that set it aside: token-created"),
  chainId: z.number().int(),
  address: checksummedAddress.describe("the contract that emitted it"),
  blockNumber: z.number().int(),
  logIndex: z.number().int(),
  transactionHash: bytes32Hex,
  reason: z.string().describe("undecodable (not the event its topic names) or unstorable (its row was refused)"),
  firstError: z.string(),
  lastError: z.string(),
  attempts: z.number().int(),
  createdAt: z.string().describe("ISO 8601"),
  updatedAt: z.string().describe("ISO 8601"),
  resolvedAt: z.string().nullable().describe("when it was indexed on a retry or found gone; null while open"),
});
export const quarantinedEventsResponse = z.object({
  events: z.array(quarantinedEvent),
  nextCursor: z.string().nullable().describe("the next page's cursor, null on the last page"),
});

/** GET /api/admin/quarantined-events: a page of events set aside, in id order. */
export async function listQuarantinedTokenEvents(query: z.infer<typeof quarantinedEventsQuery>) {
  const rows = await listQuarantinedEvents({ afterId: query.cursor, limit: query.limit + 1, all: query.all });
  const page = rows.slice(0, query.limit);
  return {
    events: page.map((r) => ({
      id: r.id,
      stream: r.stream,
      chainId: r.chainId,
      address: checksum(r.address)!,
      blockNumber: r.blockNumber,
      logIndex: r.logIndex,
      transactionHash: r.txHash,
      reason: r.reason,
      firstError: r.firstError,
      lastError: r.lastError,
      attempts: r.attempts,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      resolvedAt: r.resolvedAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > query.limit ? encodeCursor({ id: page.at(-1)!.id }) : null,
  };
}
